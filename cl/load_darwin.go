package cl

var defaultLibraries = []string{"/System/Library/Frameworks/OpenCL.framework/OpenCL"}
