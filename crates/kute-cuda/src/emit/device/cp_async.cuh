// cp.async: one 16-byte copy from global to shared memory, completing
// asynchronously (the kernel commits and waits for its groups).
__device__ __forceinline__ void kute_cp_async16(void* smem, const void* gmem) {
  unsigned int s = (unsigned int)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(gmem) : "memory");
}
// the same, reading `bytes` (0 or 16) of gmem and filling the rest with zeros
__device__ __forceinline__ void kute_cp_async16_zfill(void* smem, const void* gmem, int bytes) {
  unsigned int s = (unsigned int)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(s), "l"(gmem), "r"(bytes) : "memory");
}
