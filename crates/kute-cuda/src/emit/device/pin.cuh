// A value computed here, once: the compiler may not recompute it inside a
// later loop from what it was made of (which keeps those parts alive
// through the loop), nor move its computation into one.
__device__ __forceinline__ int kute_pin(int x) {
  asm volatile("mov.b32 %0, %1;" : "=r"(x) : "r"(x)); return x;
}
__device__ __forceinline__ unsigned int kute_pin_u32(unsigned int x) {
  asm volatile("mov.b32 %0, %1;" : "=r"(x) : "r"(x)); return x;
}
__device__ __forceinline__ const unsigned short* kute_pin_ptr(const unsigned short* p) {
  unsigned long long x = (unsigned long long)p;
  asm volatile("mov.b64 %0, %1;" : "=l"(x) : "l"(x)); return (const unsigned short*)x;
}
