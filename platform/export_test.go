package platform

// CacheHeader exposes the disk cache's file header to the external tests,
// which use it to write well-formed entries the driver must reject.
var CacheHeader = header
