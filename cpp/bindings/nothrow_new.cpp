// The nothrow operator new of the wasm modules: null when memory is short.
//
// Emscripten's libc++, built without exceptions, aborts the whole module in
// operator new when malloc fails, and its nothrow operator new calls that one:
// every `new (std::nothrow)` of the core would trap ("Aborted()") instead of
// returning the null the core checks for. These replacements (the standard
// lets a program replace them) go to malloc directly; delete frees as before.
// Only the modules link this file: native and sanitizer builds keep their own.
#include <cstdlib>
#include <new>

void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  return std::malloc(bytes ? bytes : 1);
}

void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
  return std::malloc(bytes ? bytes : 1);
}

namespace {

void* alignedOrNull(std::size_t bytes, std::align_val_t alignment) {
  const std::size_t align = static_cast<std::size_t>(alignment);
  // aligned_alloc wants a size that is a multiple of the alignment.
  return std::aligned_alloc(align, (bytes + align - 1) / align * align);
}

}  // namespace

void* operator new(std::size_t bytes, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return alignedOrNull(bytes ? bytes : 1, alignment);
}

void* operator new[](std::size_t bytes, std::align_val_t alignment, const std::nothrow_t&) noexcept {
  return alignedOrNull(bytes ? bytes : 1, alignment);
}
