/* GPUJPEG's order: the library's public header first, declaring CUDA's stream struct and
   typedef itself (no runtime included yet), then the runtime, then the definitions with the
   runtime's cudaStream_t. With CUDA both name struct CUstream_st; the toolkit's C headers give
   HIP's stream that tag, so the declaration and the definition agree. */
#include <stdio.h>

struct CUstream_st;
typedef struct CUstream_st *cudaStream_t;
struct CUevent_st;
int stream_user(cudaStream_t stream, struct CUevent_st *done);

#include <cuda_runtime.h>

int stream_user(cudaStream_t stream, cudaEvent_t done) {
  if (cudaEventRecord(done, stream) != cudaSuccess) return 1;
  return cudaStreamSynchronize(stream) == cudaSuccess ? 0 : 1;
}

int main(void) {
  cudaStream_t stream;
  cudaEvent_t done;
  if (cudaStreamCreate(&stream) != cudaSuccess || cudaEventCreate(&done) != cudaSuccess) return 1;
  const int r = stream_user(stream, done);
  printf("stream declared first: %s\n", r == 0 ? "PASS" : "FAIL");
  return r;
}
