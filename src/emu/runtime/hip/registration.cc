// What clang's host code calls: at start-up, to register the program's fat binaries, kernels and
// device variables (and at exit, to unregister them); around a <<<>>> launch, to hand its
// configuration to the launch stub.
#include "emu/runtime/core/runtime.h"

using namespace gpuport::emu::hip;

extern "C" {

struct FatBinaryWrapper {
  unsigned int magic, version;
  const void* binary;
  const void* unused;
};

void** __hipRegisterFatBinary(const void* data) {
  const auto* wrapper = static_cast<const FatBinaryWrapper*>(data);
  return reinterpret_cast<void**>(load_module(wrapper->binary));
}

void __hipUnregisterFatBinary(void** /*modules*/) {}

void __hipRegisterFunction(void** modules, const void* host_function, char* /*device_function*/, const char* device_name,
                           unsigned int, void*, void*, void*, void*, int*) {
  register_function(reinterpret_cast<Module*>(modules), host_function, device_name);
}

void __hipRegisterVar(void** modules, void* var, char* /*host_var*/, char* device_var, int, size_t size, int, int) {
  register_variable(reinterpret_cast<Module*>(modules), var, device_var, size);
}

void __hipRegisterManagedVar(void* hip_module, void** pointer, void* init_value, const char* name, size_t size, unsigned) {
  *pointer = register_managed_variable(static_cast<Module*>(hip_module), name, init_value, size);
}

hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared, hipStream_t stream) {
  push_call_configuration(grid, block, shared, stream);
  return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, hipStream_t* stream) {
  return pop_call_configuration(grid, block, shared, stream);
}

}  // extern "C"
