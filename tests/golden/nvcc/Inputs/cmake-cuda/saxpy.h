#pragma once
// y = a * x + y on the device; x and y are device pointers.
void saxpy_on_device(int n, float a, const float* x, float* y);
