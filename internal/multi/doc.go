// Package multi is the pure scheduling logic behind one call split across
// several devices: a range of units (rows or columns of C) is handed out
// in tiles to workers, one per device, which ask for the next tile when
// they are ready, so that a faster device takes more.
//
// Each device starts from an estimate of its rate (units per second) and
// of the fixed cost of one tile (launch, and the operand that every tile
// sends again); the estimate is replaced by what its tiles measure.
// Tiles shrink as the work runs out (guided self-scheduling): a device
// asks for about half of its share, by rate, of what is left, never less
// than its MinUnits (below which the fixed cost would dominate).
//
// The rule that makes the combined run no slower than the fastest device
// alone: a device other than the fastest takes a tile only if it is
// predicted to finish it no later than the fastest device would finish
// everything still untaken by itself; it takes a smaller tile when that
// fits, else none. Each take then keeps the predicted end of the whole
// call at or before the fastest device's end alone.
//
// A device that fails hands back the part of its tile it did not finish;
// the tile goes to the next device that asks. What no device finished
// (every device failed) is left for the caller (Leftover), which runs it
// on the CPU. The package starts no goroutines and calls no device: the
// caller's workers call Next, Done and Fail.
package multi
