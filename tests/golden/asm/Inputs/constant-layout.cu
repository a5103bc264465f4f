// __constant__ variables in the global namespace, two named namespaces (one reopened, one with
// a nested namespace) and the anonymous namespace, for the bank-3 layout rule of --source.
namespace q { __constant__ int a1[3]; }
namespace { __constant__ int b2[5]; }
__constant__ int c3[2] = {1, 2};
namespace p { __constant__ int d4[7]; namespace r { __constant__ int e5[1]; } }
namespace q { __constant__ int f6[1]; }
__constant__ int g7;
namespace { __constant__ int h8[2]; }
__global__ void k(int* o, int i) { o[0] = q::a1[i] + b2[i] + c3[i] + p::d4[i] + p::r::e5[i] + q::f6[i] + g7 + h8[i]; }
