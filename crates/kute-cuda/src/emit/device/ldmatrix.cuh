// ldmatrix: four or two 8 x 8 matrices of 16-bit elements from shared memory,
// each thread giving one row's address (`_at`: as a shared-window address,
// which takes an immediate offset); `_trans` transposes each matrix.
__device__ __forceinline__ void kute_ldsm_x4_at(unsigned int (&r)[4], unsigned int s) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s));
}
__device__ __forceinline__ void kute_ldsm_x2_at(unsigned int (&r)[2], unsigned int s) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(s));
}
__device__ __forceinline__ void kute_ldsm_x4_trans_at(unsigned int (&r)[4], unsigned int s) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(s));
}
__device__ __forceinline__ void kute_ldsm_x2_trans_at(unsigned int (&r)[2], unsigned int s) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(s));
}
__device__ __forceinline__ void kute_ldsm_x4(unsigned int (&r)[4], const void* smem) {
  kute_ldsm_x4_at(r, (unsigned int)__cvta_generic_to_shared(smem));
}
__device__ __forceinline__ void kute_ldsm_x2(unsigned int (&r)[2], const void* smem) {
  kute_ldsm_x2_at(r, (unsigned int)__cvta_generic_to_shared(smem));
}
__device__ __forceinline__ void kute_ldsm_x4_trans(unsigned int (&r)[4], const void* smem) {
  kute_ldsm_x4_trans_at(r, (unsigned int)__cvta_generic_to_shared(smem));
}
__device__ __forceinline__ void kute_ldsm_x2_trans(unsigned int (&r)[2], const void* smem) {
  kute_ldsm_x2_trans_at(r, (unsigned int)__cvta_generic_to_shared(smem));
}
