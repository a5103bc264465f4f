// Device queries of the emulator's HIP runtime beyond the properties and attributes of
// device.cc: the device's UUID, the device a PCI bus id names, and the peer-to-peer link
// queries, which on a one-device system can only ask about a device and itself (HIP 5.2 refuses
// that: hipErrorInvalidDevice for P2P attributes, hipErrorInvalidValue for link type and hops).
#include <cstdio>
#include <cstring>

#include "emu/runtime/core/device.h"

using namespace gpuport::emu::hip;

hipError_t hipDeviceGetUuid(hipUUID* uuid, hipDevice_t device) {
  if (device != 0) return ret(hipErrorInvalidDevice);
  if (!uuid) return ret(hipErrorInvalidValue);
  // ROCm reports an agent's UUID as the text "GPU-" and hex digits, cut to 16 bytes; the
  // emulated device's digits are a 64-bit FNV-1a hash of its name, the same in every run.
  const hipDeviceProp_t p = device_properties();
  const char* name = p.name;
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char* c = name; *c; ++c) hash = (hash ^ static_cast<unsigned char>(*c)) * 0x100000001b3ull;
  char text[17] = {};
  std::snprintf(text, sizeof(text), "GPU-%012llx", static_cast<unsigned long long>(hash & 0xffffffffffffull));
  std::memcpy(uuid->bytes, text, sizeof(uuid->bytes));
  return hipSuccess;
}

hipError_t hipDeviceGetByPCIBusId(int* device, const char* bus_id) {
  if (!device || !bus_id) return ret(hipErrorInvalidValue);
  // domain:bus:device[.function], as hipDeviceGetPCIBusId writes it ("0000:03:00.0").
  unsigned domain = 0, bus = 0, slot = 0;
  if (std::sscanf(bus_id, "%x:%x:%x", &domain, &bus, &slot) != 3) return ret(hipErrorInvalidValue);
  const hipDeviceProp_t p = device_properties();
  const int want_domain = p.pciDomainID, want_bus = p.pciBusID, want_slot = p.pciDeviceID;
  if (domain != unsigned(want_domain) || bus != unsigned(want_bus) || slot != unsigned(want_slot)) return ret(hipErrorInvalidValue);
  *device = 0;
  return hipSuccess;
}

hipError_t hipDeviceGetP2PAttribute(int* value, hipDeviceP2PAttr attribute, int src, int dst) {
  if (!value) return ret(hipErrorInvalidValue);
  // One device: either an ordinal is not a device, or both name device 0, which is no peer of itself.
  (void)attribute;
  (void)src;
  (void)dst;
  return ret(hipErrorInvalidDevice);
}

hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t* link_type, uint32_t* hop_count) {
  if (!link_type || !hop_count || device1 == device2 || device1 < 0 || device2 < 0) return ret(hipErrorInvalidValue);
  return ret(hipErrorInvalidDevice);  // two different devices, and there is only device 0
}
