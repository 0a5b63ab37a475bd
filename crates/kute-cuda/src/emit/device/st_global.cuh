// One 16-byte global store of four words (st.global.v4.b32).
__device__ __forceinline__ void kute_st_global_v4(void* p, const unsigned int (&w)[4]) {
  asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" :: "l"(p), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]) : "memory");
}
