#ifndef GOCL_CLINC_H
#define GOCL_CLINC_H
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdlib.h>
#endif
