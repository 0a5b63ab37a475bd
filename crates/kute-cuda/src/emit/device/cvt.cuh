// 16-bit float bit patterns to f32.
__device__ __forceinline__ float __half2float_bits(unsigned short h) {
  float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f;
}
__device__ __forceinline__ float __bf162float_bits(unsigned short h) {
  return __uint_as_float(((unsigned int)h) << 16);
}
