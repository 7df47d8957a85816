package engine

// Share registers p, a live pinned slice of another engine (another device
// of one multi-device Implementation), so that GEMM on this engine also
// moves it by DMA without staging copies. Whether this device's driver
// then runs at the bus's full speed depends on the driver treating the
// other context's page-locked memory as pinned; either way the transfers
// are correct, since the memory is ordinary host memory to this context.
// p stays the other engine's to free: Unshare it first.
func (s *HostSlices) Share(p *Pinned) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if s.shared == nil {
		s.shared = map[*Pinned]struct{}{}
	}
	s.shared[p] = struct{}{}
	return nil
}

// Unshare removes what Share registered.
func (s *HostSlices) Unshare(p *Pinned) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.shared, p)
}
