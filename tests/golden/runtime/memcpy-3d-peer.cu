// cudaMemcpy3DPeer[Async] (ggml copies a matrix slice between two devices' pools with it) has no
// HIP twin: the shim declares CUDA's parameter struct and makes the same copy with hipMemcpy3D
// and hipMemcpyDefault, which finds each side's device from its address. Here a 3 x 2 block of
// floats moves between two pitched allocations of device 0, row by row with the pitches.
// REQUIRES: hip-compilers, hip64
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT -e EMU %t/memcpy-3d-peer.cu | FileCheck %s
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o peer
// RUN: %gpuport run %t.run/peer | FileCheck --check-prefix=EMU %s
// EMU: peer3d: 0 1 2 | 10 11 12 | sync 6 of 6: PASS
#include <cstdio>
#include <cuda_runtime.h>
// CHECK: #if !defined(GPUPORT_MEMCPY3D_PEER)

int main() {
  float *src, *dst;
  const size_t src_pitch = 8 * sizeof(float), dst_pitch = 4 * sizeof(float);
  cudaMalloc(&src, 2 * src_pitch);
  cudaMalloc(&dst, 2 * dst_pitch);
  float host[16];
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 8; ++c) host[r * 8 + c] = static_cast<float>(r * 10 + c);
  cudaMemcpy(src, host, 2 * src_pitch, cudaMemcpyHostToDevice);
  cudaMemset(dst, 0, 2 * dst_pitch);

  cudaMemcpy3DPeerParms p = {};
  // CHECK: gpuport_hipMemcpy3DPeerParms p = {};
  p.dstDevice = 0;
  p.dstPtr = make_cudaPitchedPtr(dst, dst_pitch, 3, 2);
  p.srcDevice = 0;
  p.srcPtr = make_cudaPitchedPtr(src, src_pitch, 8, 2);
  p.extent = make_cudaExtent(3 * sizeof(float), 2, 1);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  const cudaError_t async = cudaMemcpy3DPeerAsync(&p, stream);
  // CHECK: gpuport_hipMemcpy3DPeerAsync(&p, stream);
  cudaStreamSynchronize(stream);
  float out[8];
  cudaMemcpy(out, dst, 2 * dst_pitch, cudaMemcpyDeviceToHost);

  // The synchronous form, into the row ends.
  p.dstPtr = make_cudaPitchedPtr(dst, dst_pitch, 4, 2);
  p.dstPos = make_cudaPos(3 * sizeof(float), 0, 0);
  p.extent = make_cudaExtent(sizeof(float), 2, 1);
  const cudaError_t sync = cudaMemcpy3DPeer(&p);
  float again[8];
  cudaMemcpy(again, dst, 2 * dst_pitch, cudaMemcpyDeviceToHost);
  int same = 0;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) same += again[r * 4 + c] == host[r * 8 + c];
  const bool pass = async == cudaSuccess && sync == cudaSuccess && out[3] == 0.0f && again[3] == host[0] &&
                    again[7] == host[8] && same == 6;
  std::printf("peer3d: %.0f %.0f %.0f | %.0f %.0f %.0f | sync %d of 6: %s\n", out[0], out[1], out[2], out[4], out[5], out[6], same,
              pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
