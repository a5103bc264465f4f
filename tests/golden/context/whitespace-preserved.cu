// Tabs, runs of spaces, trailing spaces and blank lines survive translation byte for byte;
// only the identifiers change.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck --strict-whitespace %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void f(void*	p) {
	cudaFree(  p  ) ;   
		cudaDeviceSynchronize  ( );

}
// CHECK: {{^}}void f(void*	p) {{[{]$}}
// CHECK-NEXT: {{^}}	hipFree(  p  ) ;   {{$}}
// CHECK-NEXT: {{^}}		hipDeviceSynchronize  ( );{{$}}
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}}{{$}}
// REPORT: 0 errors, 0 warnings
