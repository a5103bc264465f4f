// A file with nothing to translate is written out byte for byte.
// RUN: %gpuport translate %s 2>%t.err > %t.out
// RUN: cmp %s %t.out
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <vector>
	int   sum(const std::vector<int>& v)   {  int s = 0; for (int x : v) s += x; return s; }   
// REPORT: 1 files translated (0 changed, 0 rewrites)
