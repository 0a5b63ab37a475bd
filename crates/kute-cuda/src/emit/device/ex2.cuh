// 2^x by the special-function unit (ex2.approx, subnormals flushed): the
// exponential of softmax in base 2, its scale folded in by the caller.
__device__ __forceinline__ float kute_ex2(float x) {
  float y; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); return y;
}
