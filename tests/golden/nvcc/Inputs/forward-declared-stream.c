/* GPUJPEG's public header declares cudaStream_t itself unless CUDA's driver_types.h was
   included, told by that header's include guard. Here the runtime comes first: the guard keeps
   the second declaration out (in C99 a repeated typedef is an error of ISO C). */
#include <cuda_runtime.h>

#ifndef __DRIVER_TYPES_H__
struct CUstream_st;
typedef struct CUstream_st *cudaStream_t;
#endif

int stream_user(cudaStream_t stream);

int stream_user(cudaStream_t stream) { return stream == 0 ? cudaSuccess : 1; }
