// --skip-excluded-preprocessor-conditional-blocks (hipify-clang's option) leaves the groups a
// compiler would skip as written, deciding with -D/-U and the file's own #defines; a condition
// on a macro the file cannot know (the toolchain's, a library's) keeps both branches. Without it every branch is
// translated.
// RUN: %gpuport translate --skip-excluded-preprocessor-conditional-blocks --no-runtime-include %s 2>%t.err | grep -v -e CHECK -e RUN | FileCheck %s
// RUN: %gpuport translate --skip-excluded-preprocessor-conditional-blocks --no-runtime-include -DUSE_MALLOC %s 2>%t.err | grep -v -e CHECK -e RUN | FileCheck --check-prefix=DEFINED %s
// RUN: %gpuport translate --default-preprocessor --no-runtime-include %s 2>%t.err | grep -v -e CHECK -e RUN | FileCheck %s
// RUN: %gpuport translate --default-preprocessor --amap --no-runtime-include %s 2>%t.err | grep -v -e CHECK -e RUN | FileCheck --check-prefix=ALL %s
// RUN: %gpuport translate --no-runtime-include %s 2>%t.err | grep -v -e CHECK -e RUN | FileCheck --check-prefix=ALL %s
#define LEVEL 2
#ifdef USE_MALLOC
cudaMalloc(&a, 1);
#elif LEVEL > 1
cudaFree(a);
#endif
#if __LIBRARY_VERSION__ >= 11000
cudaDeviceSynchronize();
#else
cudaStreamSynchronize(0);
#endif
// CHECK: {{^}}cudaMalloc(&a, 1);
// CHECK: {{^}}hipFree(a);
// CHECK: {{^}}hipDeviceSynchronize();
// CHECK: {{^}}hipStreamSynchronize(0);
// DEFINED: {{^}}hipMalloc(&a, 1);
// DEFINED: {{^}}cudaFree(a);
// ALL: {{^}}hipMalloc(&a, 1);
// ALL: {{^}}hipFree(a);
