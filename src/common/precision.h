/*
 * precision.h - the precision modes of the vendor's model converter
 * (ATC --precision_mode) and what openacl does for each on a CPU.  Shared by
 * the environment (OPENACL_PRECISION_MODE), the model load configuration
 * (OPENACL_MDL_PRECISION_MODE_PTR of aclmdlSetConfigOpt), the tool and the
 * engine.  docs/models.md, "Precision modes", has the table.
 */
#ifndef OPENACL_COMMON_PRECISION_H
#define OPENACL_COMMON_PRECISION_H

/* What the engine does with a model's float32 operators. */
enum {
  ACL__PREC_FP32 = 0, /* everything in float32 (the default) */
  ACL__PREC_BF16 = 1  /* convolutions and matrix products read bfloat16 and accumulate and write float32;
                         every other operator stays float32 */
};

/* The mode called `name` (a vendor name such as "allow_mix_precision"):
 * 0 and *prec set, or -1 for a name openacl does not know. */
int acl__precision_parse(const char *name, int *prec);

/* Every accepted name, comma-separated, for messages. */
const char *acl__precision_names(void);

/* 1 when this CPU computes bfloat16 products natively (AVX512-BF16 or
 * AMX-BF16): the only case where ACL__PREC_BF16 is faster than float32. */
int acl__precision_cpu_bf16(void);

#endif
