/*
 * precision.c - precision mode names and the CPU check behind them.
 *
 * A card computes its cube operators (convolution, matrix product) in
 * float16 and the vendor's converter picks, per mode, which operators are
 * lowered.  A CPU has no float16 arithmetic units worth using (AVX512-FP16
 * is rare), but recent ones multiply bfloat16 at twice the float32 rate, and
 * bfloat16 keeps float32's range, so every mode that lowers precision maps to
 * bfloat16 for the cube operators here, with float32 accumulation.  Vector
 * operators (softmax, normalisations, activations, reductions) stay float32
 * in every mode: what allow_mix_precision keeps in float32 on the card, and
 * never less accurate than the card's force_fp16.
 */
#include "common/precision.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static const struct {
  const char *name;
  int prec;
} modes[] = {
    {"must_keep_origin_dtype", ACL__PREC_FP32},
    {"force_fp32", ACL__PREC_FP32},
    {"allow_fp32_to_fp16", ACL__PREC_BF16},
    {"force_fp16", ACL__PREC_BF16},
    {"allow_mix_precision", ACL__PREC_BF16},
    {"allow_mix_precision_fp16", ACL__PREC_BF16},
    {"allow_mix_precision_bf16", ACL__PREC_BF16},
    {"allow_fp32_to_bf16", ACL__PREC_BF16},
    {"force_lowerprecision", ACL__PREC_BF16},
    {"cube_fp16in_fp32out", ACL__PREC_BF16},
};

int acl__precision_parse(const char *name, int *prec) {
  if (name == NULL)
    return -1;
  for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
    if (strcmp(name, modes[i].name) == 0) {
      *prec = modes[i].prec;
      return 0;
    }
  return -1;
}

const char *acl__precision_names(void) {
  return "must_keep_origin_dtype, force_fp32, allow_fp32_to_fp16, force_fp16, allow_mix_precision, "
         "allow_mix_precision_fp16, allow_mix_precision_bf16, allow_fp32_to_bf16, force_lowerprecision, "
         "cube_fp16in_fp32out";
}

/* AMX-BF16, or AVX512-BF16 outside Intel's CPUs.  Intel's vdpbf16ps
 * issues on one port, where it does the work of two float32 FMAs, so
 * without AMX bfloat16 only adds conversions: on a Xeon with AVX512-BF16
 * and no AMX the zoo ran 1.6x slower in bfloat16 than in float32
 * (2026-12-03), where AMD's Zen 4 ran it 1.3-1.8x faster. */
int acl__precision_cpu_bf16(void) {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a, b, c, d;
  __cpuid(0, a, b, c, d); /* a: the highest leaf; b, d, c: the vendor */
  if (a < 7)
    return 0;
  int intel = b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e; /* "GenuineIntel" */
  __cpuid_count(7, 0, a, b, c, d);
  int amx_bf16 = (d >> 22) & 1;
  int avx512f = (b >> 16) & 1;
  __cpuid_count(7, 1, a, b, c, d);
  int avx512_bf16 = (a >> 5) & 1;
  return amx_bf16 || (avx512f && avx512_bf16 && !intel);
#else
  return 0;
#endif
}
