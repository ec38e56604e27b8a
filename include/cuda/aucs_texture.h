/*
 * aucs_texture.h: legacy texture references (`texture<T, dim, mode>` at
 * file scope, tex1Dfetch / tex1D / tex2D / tex3D / tex1DLayered /
 * tex2DLayered on them), which CUDA 12 removed from its headers, for
 * compiling older image kernels. aucs adds `-include aucs_texture.h` when a
 * .cu mentions `texture<`; with or without a CUDA SDK.
 *
 * A reference is a clang device-builtin texture type, so device code sees
 * its handle, as with the CUDA 11 headers; every fetch here is the PTX
 * `tex` instruction those headers emit, which aucs interprets as a read of
 * a read-only image (DESIGN.md, docs/model.md, "Textures and surfaces").
 *
 * Limitation: element types float, int, unsigned and their 2- and
 * 4-vectors; cudaReadModeNormalizedFloat fetches of 8/16-bit texels are
 * read as element-type fetches. The host API (cudaBindTexture, ...) is
 * declared, never defined: aucs compiles device code only.
 */
#ifndef AUCS_TEXTURE_H
#define AUCS_TEXTURE_H

#if !defined(CUDART_VERSION) || CUDART_VERSION >= 12000

#ifndef CUDART_VERSION /* no SDK: the types the SDK's texture_types.h has */
enum cudaTextureReadMode {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1
};
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode {
  cudaFilterModePoint = 0,
  cudaFilterModeLinear = 1
};
struct cudaChannelFormatDesc {
  int x, y, z, w, f;
};
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#endif

/* The host-side fields legacy code sets before binding. */
struct __aucs_texref {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned maxAnisotropy;
};

template <class T, int dim = cudaTextureType1D,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture
    : public __aucs_texref {};

#ifdef CUDART_VERSION
template <class T, int D, enum cudaTextureReadMode M>
__host__ cudaError_t cudaBindTexture(size_t *offset, const texture<T, D, M> &t,
                                     const void *ptr, size_t size = ~0ul);
template <class T, int D, enum cudaTextureReadMode M>
__host__ cudaError_t cudaBindTexture2D(size_t *offset,
                                       const texture<T, D, M> &t,
                                       const void *ptr, size_t width,
                                       size_t height, size_t pitch);
template <class T, int D, enum cudaTextureReadMode M>
__host__ cudaError_t cudaBindTexture2D(size_t *offset,
                                       const texture<T, D, M> &t,
                                       const void *ptr,
                                       const cudaChannelFormatDesc &desc,
                                       size_t width, size_t height,
                                       size_t pitch);
template <class T, int D, enum cudaTextureReadMode M>
__host__ cudaError_t cudaBindTextureToArray(const texture<T, D, M> &t,
                                            cudaArray_const_t array);
template <class T, int D, enum cudaTextureReadMode M>
__host__ cudaError_t
cudaBindTextureToArray(const texture<T, D, M> &t, cudaArray_const_t array,
                       const cudaChannelFormatDesc &desc);
template <class T, int D, enum cudaTextureReadMode M>
__host__ cudaError_t cudaUnbindTexture(const texture<T, D, M> &t);
#endif

/* The handle of a reference, as the CUDA 11 headers take it. */
template <class R>
static __device__ __inline__ unsigned long long __aucs_texhandle(R r) {
  unsigned long long h;
  asm("mov.b64 %0, %1;" : "=l"(h) : "l"(r));
  return h;
}

/* One PTX fetch per element kind: {x, y, z, w} of the texel. */
struct __aucs_f4 {
  float x, y, z, w;
};
struct __aucs_i4 {
  int x, y, z, w;
};

#define __AUCS_TEX(NAME, GEOM, CT, CC, PARAMS, COORDS, ...)                    \
  static __device__ __inline__ __aucs_f4 NAME##_f(unsigned long long h,        \
                                                   PARAMS) {                   \
    __aucs_f4 r;                                                               \
    asm("tex." GEOM ".v4.f32." CT " {%0, %1, %2, %3}, [%4, " COORDS "];"       \
        : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w)                           \
        : "l"(h), __VA_ARGS__);                                                \
    return r;                                                                  \
  }                                                                            \
  static __device__ __inline__ __aucs_i4 NAME##_i(unsigned long long h,        \
                                                   PARAMS) {                   \
    __aucs_i4 r;                                                               \
    asm("tex." GEOM ".v4.s32." CT " {%0, %1, %2, %3}, [%4, " COORDS "];"       \
        : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)                           \
        : "l"(h), __VA_ARGS__);                                                \
    return r;                                                                  \
  }
#define __AUCS_P(...) __VA_ARGS__
__AUCS_TEX(__aucs_fetch1d, "1d", "s32", 1, int x, "{%5}", "r"(x))
__AUCS_TEX(__aucs_tex1d, "1d", "f32", 1, float x, "{%5}", "f"(x))
__AUCS_TEX(__aucs_tex2d, "2d", "f32", 2, __AUCS_P(float x, float y),
           "{%5, %6}", "f"(x), "f"(y))
__AUCS_TEX(__aucs_tex3d, "3d", "f32", 3, __AUCS_P(float x, float y, float z),
           "{%5, %6, %7, %7}", "f"(x), "f"(y), "f"(z))
__AUCS_TEX(__aucs_tex1dl, "a1d", "f32", 2, __AUCS_P(int l, float x),
           "{%5, %6}", "r"(l), "f"(x))
__AUCS_TEX(__aucs_tex2dl, "a2d", "f32", 3,
           __AUCS_P(int l, float x, float y), "{%5, %6, %7, %7}", "r"(l),
           "f"(x), "f"(y))
#undef __AUCS_P
#undef __AUCS_TEX

/* The texel as T: the first components of the fetched vector. */
template <class T> struct __aucs_texel;
#define __AUCS_SCALAR(T, K)                                                    \
  template <> struct __aucs_texel<T> {                                         \
    template <class V> static __device__ T get(V v) { return (T)v.x; }         \
    static const int is_float = K;                                             \
  };
#define __AUCS_VEC(T, K, ...)                                                  \
  template <> struct __aucs_texel<T> {                                         \
    template <class V> static __device__ T get(V v) {                          \
      T r = {__VA_ARGS__};                                                     \
      return r;                                                                \
    }                                                                          \
    static const int is_float = K;                                             \
  };
__AUCS_SCALAR(float, 1)
__AUCS_SCALAR(int, 0)
__AUCS_SCALAR(unsigned, 0)
__AUCS_VEC(float2, 1, v.x, v.y)
__AUCS_VEC(float4, 1, v.x, v.y, v.z, v.w)
__AUCS_VEC(int2, 0, v.x, v.y)
__AUCS_VEC(int4, 0, v.x, v.y, v.z, v.w)
__AUCS_VEC(uint2, 0, (unsigned)v.x, (unsigned)v.y)
__AUCS_VEC(uint4, 0, (unsigned)v.x, (unsigned)v.y, (unsigned)v.z,
           (unsigned)v.w)
#undef __AUCS_SCALAR
#undef __AUCS_VEC

#define __AUCS_FETCH(T, h, F, ...)                                             \
  if constexpr (__aucs_texel<T>::is_float)                                     \
    return __aucs_texel<T>::get(F##_f(h, __VA_ARGS__));                        \
  else                                                                         \
    return __aucs_texel<T>::get(F##_i(h, __VA_ARGS__))

template <class T, enum cudaTextureReadMode M>
static __device__ __inline__ T tex1Dfetch(texture<T, cudaTextureType1D, M> t,
                                          int x) {
  __AUCS_FETCH(T, __aucs_texhandle(t), __aucs_fetch1d, x);
}
template <class T, enum cudaTextureReadMode M>
static __device__ __inline__ T tex1D(texture<T, cudaTextureType1D, M> t,
                                     float x) {
  __AUCS_FETCH(T, __aucs_texhandle(t), __aucs_tex1d, x);
}
template <class T, enum cudaTextureReadMode M>
static __device__ __inline__ T tex2D(texture<T, cudaTextureType2D, M> t,
                                     float x, float y) {
  __AUCS_FETCH(T, __aucs_texhandle(t), __aucs_tex2d, x, y);
}
template <class T, enum cudaTextureReadMode M>
static __device__ __inline__ T tex3D(texture<T, cudaTextureType3D, M> t,
                                     float x, float y, float z) {
  __AUCS_FETCH(T, __aucs_texhandle(t), __aucs_tex3d, x, y, z);
}
template <class T, enum cudaTextureReadMode M>
static __device__ __inline__ T
tex1DLayered(texture<T, cudaTextureType1DLayered, M> t, float x, int layer) {
  __AUCS_FETCH(T, __aucs_texhandle(t), __aucs_tex1dl, layer, x);
}
template <class T, enum cudaTextureReadMode M>
static __device__ __inline__ T
tex2DLayered(texture<T, cudaTextureType2DLayered, M> t, float x, float y,
             int layer) {
  __AUCS_FETCH(T, __aucs_texhandle(t), __aucs_tex2dl, layer, x, y);
}
#undef __AUCS_FETCH

#endif /* no texture<> in the SDK's headers */
#endif
