// A device function other files call: with separable compilation it is linked across files.
__device__ float scaled(float x) { return 2.0f * x + 1.0f; }
