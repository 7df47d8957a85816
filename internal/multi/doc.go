// Package multi is the pure scheduling logic behind one call split across
// several devices: a range of units (rows or columns of C) is handed out
// in tiles to workers, one per device, which ask for the next tile when
// they are ready, so that a faster device takes more.
//
// Each device starts from an estimate of its rate (units per second) and
// of the fixed cost of one tile (launch, and the operand that every tile
// sends again); the estimate is replaced by what its tiles measure.
// What is left is shared so that every device would end at the same time
// (water filling over the times the devices are free). The fastest device
// takes its whole share at once, so that it pays its fixed cost once, and
// counts a device not measured yet at a quarter of its estimate, so that
// what such a device leaves does not cost it a second tile; the others
// take half of their share (a quarter before their first measurement),
// so that the end balances, never less than MinUnits (below which the
// fixed cost would dominate). The fastest device waits rather than take a
// remnant that a busy, measured device would finish before it could.
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
