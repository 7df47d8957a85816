package platform

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
)

// diskCache keeps program binaries in files named by their key. Each file
// is a header (magic, payload length, payload SHA-256) and the payload, so
// a truncated or corrupt file is detected and treated as a miss. Files are
// written to a temporary name and renamed, so readers never see a partial
// file from a concurrent writer.
type diskCache struct{ dir string }

var cacheMagic = []byte("GOCLBIN1")

const headerSize = 8 + 8 + sha256.Size

func (c *diskCache) path(key string) string { return filepath.Join(c.dir, key+".bin") }

func (c *diskCache) load(key string) ([]byte, bool) {
	b, err := os.ReadFile(c.path(key))
	if err != nil || len(b) < headerSize || !bytes.Equal(b[:8], cacheMagic) {
		return nil, false
	}
	n := binary.LittleEndian.Uint64(b[8:16])
	payload := b[headerSize:]
	if uint64(len(payload)) != n {
		return nil, false
	}
	sum := sha256.Sum256(payload)
	if !bytes.Equal(sum[:], b[16:headerSize]) {
		return nil, false
	}
	return payload, true
}

func (c *diskCache) store(key string, bin []byte) error {
	if len(bin) == 0 {
		return errors.New("empty binary")
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(c.dir, key+".*.tmp")
	if err != nil {
		return err
	}
	_, err1 := f.Write(header(bin))
	_, err2 := f.Write(bin)
	err3 := f.Close()
	if err := errors.Join(err1, err2, err3); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), c.path(key)); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// header is the cache file header for payload bin.
func header(bin []byte) []byte {
	sum := sha256.Sum256(bin)
	hdr := make([]byte, headerSize)
	copy(hdr[:8], cacheMagic)
	binary.LittleEndian.PutUint64(hdr[8:16], uint64(len(bin)))
	copy(hdr[16:], sum[:])
	return hdr
}
