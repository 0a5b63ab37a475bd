// Two f32 values rounded (to nearest even) into one 32-bit word of two
// 16-bit floats, `lo` in the low half (the lower column or k index).
__device__ __forceinline__ unsigned int kute_pack_f16x2(float lo, float hi) {
  unsigned int h; asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(h) : "f"(hi), "f"(lo)); return h;
}
__device__ __forceinline__ unsigned int kute_pack_bf16x2(float lo, float hi) {
  unsigned int h; asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(h) : "f"(hi), "f"(lo)); return h;
}
