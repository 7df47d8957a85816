package cl

// Released reports whether Release has been called on this reference to
// the program (other references to the same driver program are separate).
func (p *Program) Released() bool { return p.obj.state.Load()&releasedBit != 0 }
