// An include guard's #ifndef is no condition: two CUDA headers that map to one HIP header
// inside it collapse into one include, as at file level (duplicates in real #if branches stay).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN | FileCheck %s
#ifndef SOLVER_GUARD_H
#define SOLVER_GUARD_H
#include <cusolver_common.h>
#include <cusolverDn.h>
#ifdef USE_SPARSE
#include <cusolverDn.h>
#endif
// CHECK: {{^}}#include <hipsolver/hipsolver.h>
// CHECK-NEXT: {{^}}#ifdef USE_SPARSE
// CHECK-NEXT: {{^}}#include <hipsolver/hipsolver.h>
int placeholder;
#endif
