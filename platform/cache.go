package platform

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
)

// diskCache keeps program binaries in files named by their key. Each file
// is a header (magic, key and payload lengths, SHA-256 of key and payload),
// the key and the payload. The key lies inside the checksummed content, so
// a file that is truncated, corrupt, or not the entry of the key asked for
// (copied or renamed from another one) is detected and treated as a miss.
// Files are written to a temporary name and renamed, so readers never see
// a partial file from a concurrent writer.
type diskCache struct{ dir string }

// warnedDirs holds the cache directories a failed write has been logged
// for at Warn, once per process; later failures go to Debug.
var warnedDirs sync.Map

var cacheMagic = []byte("GOCLBIN2")

const headerSize = 8 + 8 + 8 + sha256.Size

func (c *diskCache) path(key string) string { return filepath.Join(c.dir, key+".bin") }

func (c *diskCache) load(key string) ([]byte, bool) {
	b, err := os.ReadFile(c.path(key))
	if err != nil || len(b) < headerSize || !bytes.Equal(b[:8], cacheMagic) {
		return nil, false
	}
	nk := binary.LittleEndian.Uint64(b[8:16])
	np := binary.LittleEndian.Uint64(b[16:24])
	body := b[headerSize:]
	if nk != uint64(len(key)) || uint64(len(body)) < nk || uint64(len(body))-nk != np {
		return nil, false
	}
	sum := sha256.Sum256(body)
	if !bytes.Equal(sum[:], b[24:headerSize]) || string(body[:nk]) != key {
		return nil, false
	}
	return body[nk:], true
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
	_, err1 := f.Write(entry(key, bin))
	err2 := f.Close()
	if err := errors.Join(err1, err2); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), c.path(key)); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// storeFailed logs a failed write: the first for its directory in the
// process at Warn (a cache directory that cannot be written costs every
// later run its compile time), the rest at Debug.
func (c *diskCache) storeFailed(log *slog.Logger, err error) {
	level := slog.LevelDebug
	if _, seen := warnedDirs.LoadOrStore(c.dir, true); !seen {
		level = slog.LevelWarn
	}
	log.Log(context.Background(), level, "gocl: program cache not written (further failures are logged at Debug)", "dir", c.dir, "err", err)
}

// entry is the cache file for key holding payload bin.
func entry(key string, bin []byte) []byte {
	out := make([]byte, headerSize, headerSize+len(key)+len(bin))
	out = append(append(out, key...), bin...)
	copy(out[:8], cacheMagic)
	binary.LittleEndian.PutUint64(out[8:16], uint64(len(key)))
	binary.LittleEndian.PutUint64(out[16:24], uint64(len(bin)))
	sum := sha256.Sum256(out[headerSize:])
	copy(out[24:headerSize], sum[:])
	return out
}
