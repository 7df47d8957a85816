package platform

// CacheEntry exposes the disk cache's file format to the external tests,
// which use it to write well-formed entries that must still be rejected.
var CacheEntry = entry
