// The structs behind handle typedefs (typedef struct CUstream_st *CUstream) become the structs
// HIP's handles point to (typedef struct ihipStream_t* hipStream_t), as gpuport-mapgen pairs
// them from both sides' headers: CUstream_st* stays a pointer to one stream, where mapping it
// like CUstream would have made it hipStream_t*, a pointer to a handle. An elaborated
// `struct CUevent_st` keeps its keyword: ihipEvent_t is a tag, not a typedef.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>
CUstream_st* stream;
// CHECK: {{^}}ihipStream_t* stream;
struct CUevent_st* event;
// CHECK: {{^}}struct ihipEvent_t* event;
CUctx_st* context;
// CHECK: {{^}}ihipCtx_t* context;
CUfunc_st* function;
// CHECK: {{^}}ihipModuleSymbol_t* function;
CUgraph_st* graph;
// CHECK: {{^}}ihipGraph* graph;
CUstream handle = stream;
// CHECK: {{^}}hipStream_t handle = stream;
// REPORT-NOT: unknown-api
// REPORT: 0 errors, 0 warnings
