/*
 * nms.c - NonMaxSuppression (opset 10/11): per batch and class, keeps boxes
 * in descending score order, dropping each box whose IoU with a kept one is
 * above iou_threshold, and those scoring below score_threshold; at most
 * max_output_boxes_per_class per class.  Output: [n, 3] int64 rows of
 * (batch, class, box index).
 */
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

/* Corners (y1, x1, y2, x2) ordered min/max, from either box encoding. */
static void corners(const acl__tensor *boxes, int64_t at, int center, double c[4]) {
  double v[4];
  for (int k = 0; k < 4; k++)
    v[k] = acl__op_get(boxes, at * 4 + k);
  if (center) { /* x_center, y_center, width, height */
    c[0] = v[1] - v[3] / 2, c[1] = v[0] - v[2] / 2, c[2] = v[1] + v[3] / 2, c[3] = v[0] + v[2] / 2;
    return;
  }
  c[0] = v[0] < v[2] ? v[0] : v[2], c[2] = v[0] < v[2] ? v[2] : v[0];
  c[1] = v[1] < v[3] ? v[1] : v[3], c[3] = v[1] < v[3] ? v[3] : v[1];
}

static double iou(const double a[4], const double b[4]) {
  double h = (a[2] < b[2] ? a[2] : b[2]) - (a[0] > b[0] ? a[0] : b[0]);
  double w = (a[3] < b[3] ? a[3] : b[3]) - (a[1] > b[1] ? a[1] : b[1]);
  if (h <= 0 || w <= 0)
    return 0;
  double inter = h * w, uni = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return uni > 0 ? inter / uni : 0;
}

/* qsort has no context argument: the scores being sorted, per thread */
static _Thread_local const acl__tensor *tl_scores;
static _Thread_local int64_t tl_base;

static int by_score(const void *pa, const void *pb) {
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  double sa = acl__op_get(tl_scores, tl_base + a), sb = acl__op_get(tl_scores, tl_base + b);
  if (sa != sb)
    return sa > sb ? -1 : 1;
  return a < b ? -1 : a > b; /* equal scores: lower index first, as the reference does */
}

int acl__k_nms(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *boxes = ctx->in[0], *scores = ctx->in[1];
  if (boxes->rank != 3 || boxes->dims[2] != 4 || scores->rank != 3 || scores->dims[0] != boxes->dims[0] ||
      scores->dims[2] != boxes->dims[1])
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "boxes must be [B, N, 4] and scores [B, C, N]");
  int64_t B = boxes->dims[0], N = boxes->dims[1], C = scores->dims[1];
  int64_t max_out = ctx->n_in > 2 && ctx->in[2] != NULL ? acl__op_get_i64(ctx->in[2], 0) : 0;
  double iou_th = ctx->n_in > 3 && ctx->in[3] != NULL ? acl__op_get(ctx->in[3], 0) : 0;
  int has_score_th = ctx->n_in > 4 && ctx->in[4] != NULL;
  double score_th = has_score_th ? acl__op_get(ctx->in[4], 0) : 0;
  int center = acl__op_attr_int(ctx, "center_point_box", 0) != 0;
  int64_t *order = malloc((size_t)(N + 1) * sizeof(int64_t)), *kept = malloc((size_t)(N + 1) * sizeof(int64_t));
  int64_t *sel = malloc((size_t)(B * C * N + 1) * 3 * sizeof(int64_t)), n_sel = 0;
  if (order == NULL || kept == NULL || sel == NULL) {
    rc = acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory");
    goto out;
  }
  for (int64_t b = 0; b < B; b++)
    for (int64_t c = 0; c < C; c++) {
      int64_t n = 0, nk = 0;
      tl_scores = scores;
      tl_base = (b * C + c) * N;
      for (int64_t i = 0; i < N; i++)
        if (!has_score_th || acl__op_get(scores, tl_base + i) > score_th)
          order[n++] = i;
      qsort(order, (size_t)n, sizeof(int64_t), by_score);
      for (int64_t i = 0; i < n && nk < max_out; i++) {
        double a[4], k4[4];
        corners(boxes, b * N + order[i], center, a);
        int keep = 1;
        for (int64_t j = 0; j < nk && keep; j++) {
          corners(boxes, b * N + kept[j], center, k4);
          keep = iou(a, k4) <= iou_th;
        }
        if (!keep)
          continue;
        kept[nk++] = order[i];
        sel[3 * n_sel] = b, sel[3 * n_sel + 1] = c, sel[3 * n_sel + 2] = order[i];
        n_sel++;
      }
    }
  int64_t dims[2] = {n_sel, 3};
  rc = acl__op_alloc(ctx, 0, ACL__ONNX_INT64, 2, dims);
  if (rc == 0 && n_sel > 0)
    memcpy(ctx->out[0].data, sel, (size_t)n_sel * 3 * sizeof(int64_t));
out:
  free(order);
  free(kept);
  free(sel);
  return rc;
}
