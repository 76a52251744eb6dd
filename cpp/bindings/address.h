// Shared by the binding files: an address in wasm memory as JS holds it.
#pragma once

#include <cstdint>

namespace posenc::bindings {

// A plain number (wasm32: below 2^32) as a pointer.
template <typename T>
T* at(double address) {
  return reinterpret_cast<T*>(static_cast<uintptr_t>(address));
}

}  // namespace posenc::bindings
