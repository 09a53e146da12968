/*
 * tdt.c - TDT data items, datasets and channels (acl/acl_tdt.h) through the
 * public API: every function's codes, capacity and timeouts, end of
 * sequence, clean / stop, the older channel kind, device-memory items,
 * a producer and a consumer thread, and the vendor's two channel samples.
 */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "harness.h"

static void setup(void) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void teardown(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* A dataset of one float tensor {1,4} = first, first+1, ... */
static acltdtDataset *one_tensor(float *buf, float first, acltdtDataItem **item) {
  int64_t dims[2] = {1, 4};
  for (int i = 0; i < 4; i++)
    buf[i] = first + (float)i;
  *item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, buf, 4 * sizeof(float));
  CHECK_NOT_NULL(*item);
  acltdtDataset *ds = acltdtCreateDataset();
  CHECK_NOT_NULL(ds);
  CHECK_INT_EQ(acltdtAddDataItem(ds, *item), ACL_SUCCESS);
  return ds;
}

static void free_sent(acltdtDataset *ds, acltdtDataItem *item) {
  CHECK_INT_EQ(acltdtDestroyDataset(ds), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyDataItem(item), ACL_SUCCESS);
}

TEST(item_getters_and_codes) {
  int64_t dims[3] = {2, 3, 4};
  float data[24] = {0};
  acltdtDataItem *it = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 3, ACL_FLOAT, data, sizeof data);
  CHECK_NOT_NULL(it);
  CHECK_INT_EQ(acltdtGetTensorTypeFromItem(it), ACL_TENSOR_DATA_TENSOR);
  CHECK_INT_EQ(acltdtGetDataTypeFromItem(it), ACL_FLOAT);
  CHECK(acltdtGetDataAddrFromItem(it) == data); /* borrowed, not copied */
  CHECK_INT_EQ(acltdtGetDataSizeFromItem(it), sizeof data);
  CHECK_INT_EQ(acltdtGetDimNumFromItem(it), 3);
  int64_t got[4] = {0};
  CHECK_INT_EQ(acltdtGetDimsFromItem(it, got, 4), ACL_SUCCESS);
  CHECK_INT_EQ(got[2], 4);
  CHECK_INT_EQ(acltdtGetDimsFromItem(it, got, 2), ACL_ERROR_INVALID_PARAM); /* too small */
  CHECK_INT_EQ(acltdtGetDimsFromItem(it, NULL, 3), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGetDimsFromItem(it, NULL, 0), ACL_ERROR_INVALID_PARAM); /* item has dims */
  size_t n = 9, id = 9;
  CHECK_INT_EQ(acltdtGetSliceInfoFromItem(it, &n, &id), ACL_SUCCESS);
  CHECK_INT_EQ(n, 0);
  CHECK_INT_EQ(id, 0);
  CHECK_INT_EQ(acltdtGetSliceInfoFromItem(it, NULL, &id), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGetSliceInfoFromItem(NULL, &n, &id), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtDestroyDataItem(it), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyDataItem(it), ACL_ERROR_INVALID_PARAM); /* twice */
  CHECK_INT_EQ(acltdtDestroyDataItem(NULL), ACL_ERROR_INVALID_PARAM);
  /* NULL getters */
  CHECK_INT_EQ(acltdtGetTensorTypeFromItem(NULL), ACL_TENSOR_DATA_UNDEFINED);
  CHECK_INT_EQ(acltdtGetDataTypeFromItem(NULL), ACL_DT_UNDEFINED);
  CHECK_NULL(acltdtGetDataAddrFromItem(NULL));
  CHECK_INT_EQ(acltdtGetDataSizeFromItem(NULL), 0);
  CHECK_INT_EQ(acltdtGetDimNumFromItem(NULL), 0);
  /* creation rules */
  CHECK_NULL(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, NULL, 2, ACL_FLOAT, data, 4));
  CHECK_NULL(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 0, ACL_FLOAT, data, 4));
  int64_t many[129] = {0};
  CHECK_NULL(acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, many, 129, ACL_FLOAT, data, 4));
  CHECK_NULL(acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, dims, 3, ACL_FLOAT, NULL, 0));
  CHECK_NULL(acltdtCreateDataItem((acltdtTensorType)7, NULL, 0, ACL_FLOAT, NULL, 0));
  CHECK_STR_HAS(aclGetRecentErrMsg(), "acltdtCreateDataItem");
  /* a scalar, and an end-of-sequence marker without data */
  acltdtDataItem *scalar = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, NULL, 0, ACL_INT32, data, 4);
  CHECK_NOT_NULL(scalar);
  CHECK_INT_EQ(acltdtGetDimsFromItem(scalar, NULL, 0), ACL_SUCCESS);
  acltdtDataItem *eos = acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, NULL, 0, ACL_FLOAT, NULL, 0);
  CHECK_NOT_NULL(eos);
  CHECK_INT_EQ(acltdtGetDataTypeFromItem(eos), ACL_DT_UNDEFINED);
  CHECK_INT_EQ(acltdtGetDataSizeFromItem(eos), 0);
  CHECK_INT_EQ(acltdtDestroyDataItem(scalar), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyDataItem(eos), ACL_SUCCESS);
}

TEST(dataset_codes) {
  acltdtDataset *ds = acltdtCreateDataset();
  CHECK_NOT_NULL(ds);
  CHECK_STR_EQ(acltdtGetDatasetName(ds), "");
  CHECK_INT_EQ(acltdtGetDatasetSize(ds), 0);
  CHECK_INT_EQ(acltdtGetDatasetSize(NULL), 0);
  CHECK_NULL(acltdtGetDatasetName(NULL));
  CHECK_NULL(acltdtGetDataItem(ds, 0));
  CHECK_INT_EQ(acltdtAddDataItem(ds, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtAddDataItem(NULL, NULL), ACL_ERROR_INVALID_PARAM);
  float v = 1;
  acltdtDataItem *a = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, NULL, 0, ACL_FLOAT, &v, 4);
  acltdtDataItem *b = acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, NULL, 0, ACL_FLOAT, NULL, 0);
  CHECK_INT_EQ(acltdtAddDataItem(ds, a), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtAddDataItem(ds, b), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtGetDatasetSize(ds), 2);
  CHECK(acltdtGetDataItem(ds, 1) == b);
  CHECK_NULL(acltdtGetDataItem(ds, 2));
  /* a dataset does not own its items: destroy it, the items live on */
  CHECK_INT_EQ(acltdtDestroyDataset(ds), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyDataset(ds), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtDestroyDataset(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGetTensorTypeFromItem(b), ACL_TENSOR_DATA_END_OF_SEQUENCE);
  /* a handle of another kind is named */
  CHECK_INT_EQ(acltdtDestroyDataset((acltdtDataset *)a), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "TDT data item");
  CHECK_INT_EQ(acltdtDestroyDataItem(a), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyDataItem(b), ACL_SUCCESS);
}

TEST(channel_create_rules) {
  /* before aclInit */
  CHECK_NULL(acltdtCreateChannelWithCapacity(0, "c", 2));
  setup();
  CHECK_NULL(acltdtCreateChannelWithCapacity(0, NULL, 2));
  CHECK_NULL(acltdtCreateChannelWithCapacity(0, "c", 1));
  CHECK_NULL(acltdtCreateChannelWithCapacity(0, "c", 8193));
  CHECK_NULL(acltdtCreateChannelWithCapacity(4096, "c", 2));
  char longname[200];
  memset(longname, 'x', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  CHECK_NULL(acltdtCreateChannelWithCapacity(0, longname, 2));
  acltdtChannelHandle *h = acltdtCreateChannelWithCapacity(0, "c", 8192);
  CHECK_NOT_NULL(h);
  CHECK_INT_EQ(acltdtDestroyChannel(h), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyChannel(h), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtDestroyChannel(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtStopChannel(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtCleanChannel(NULL), ACL_ERROR_INVALID_PARAM);
  size_t n = 0;
  CHECK_INT_EQ(acltdtQueryChannelSize(NULL, &n), ACL_ERROR_INVALID_PARAM);
  teardown();
}

TEST(channel_capacity_timeouts_and_order) {
  setup();
  acltdtChannelHandle *h = acltdtCreateChannelWithCapacity(0, "order", 2);
  CHECK_NOT_NULL(h);
  float b1[4], b2[4], b3[4];
  acltdtDataItem *i1, *i2, *i3;
  acltdtDataset *d1 = one_tensor(b1, 1, &i1), *d2 = one_tensor(b2, 10, &i2), *d3 = one_tensor(b3, 100, &i3);
  size_t n = 9;
  CHECK_INT_EQ(acltdtQueryChannelSize(h, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtSendTensor(h, d1, 1000), ACL_SUCCESS);
  b1[0] = -1; /* the channel holds a copy */
  CHECK_INT_EQ(acltdtSendTensor(h, d2, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtQueryChannelSize(h, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 2);
  CHECK_INT_EQ(acltdtSendTensor(h, d3, 0), ACL_ERROR_RT_QUEUE_FULL);
  uint64_t t0 = th_now_ns();
  CHECK_INT_EQ(acltdtSendTensor(h, d3, 50), ACL_ERROR_RT_QUEUE_FULL);
  CHECK(th_now_ns() - t0 >= 45000000ull);
  CHECK_INT_EQ(acltdtSendTensor(h, d3, -2), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtSendTensor(h, NULL, 0), ACL_ERROR_INVALID_PARAM);
  /* first in, first out; the received dataset owns a copy */
  acltdtDataset *r = acltdtCreateDataset();
  CHECK_INT_EQ(acltdtReceiveTensor(h, r, 1000), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtGetDatasetSize(r), 1);
  acltdtDataItem *got = acltdtGetDataItem(r, 0);
  CHECK_INT_EQ(acltdtGetTensorTypeFromItem(got), ACL_TENSOR_DATA_TENSOR);
  CHECK_INT_EQ(acltdtGetDataTypeFromItem(got), ACL_FLOAT);
  CHECK_INT_EQ(acltdtGetDataSizeFromItem(got), 16);
  CHECK_INT_EQ(((float *)acltdtGetDataAddrFromItem(got))[0], 1);
  int64_t dims[2];
  CHECK_INT_EQ(acltdtGetDimsFromItem(got, dims, 2), ACL_SUCCESS);
  CHECK_INT_EQ(dims[1], 4);
  CHECK_INT_EQ(acltdtDestroyDataItem(got), ACL_ERROR_INVALID_PARAM); /* the dataset's */
  CHECK_INT_EQ(acltdtAddDataItem(r, i3), ACL_ERROR_FEATURE_UNSUPPORTED);
  /* receiving again replaces the items */
  CHECK_INT_EQ(acltdtReceiveTensor(h, r, 0), ACL_SUCCESS);
  CHECK_INT_EQ(((float *)acltdtGetDataAddrFromItem(acltdtGetDataItem(r, 0)))[3], 13);
  CHECK_INT_EQ(acltdtReceiveTensor(h, r, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  t0 = th_now_ns();
  CHECK_INT_EQ(acltdtReceiveTensor(h, r, 30), ACL_ERROR_RT_QUEUE_EMPTY);
  CHECK(th_now_ns() - t0 >= 25000000ull);
  /* a user-built dataset with items of its own cannot receive */
  CHECK_INT_EQ(acltdtSendTensor(h, d3, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtReceiveTensor(h, d1, 0), ACL_ERROR_INVALID_PARAM);
  /* clean drops what is queued; stop does nothing to a capacity channel */
  CHECK_INT_EQ(acltdtCleanChannel(h), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtQueryChannelSize(h, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 0);
  CHECK_INT_EQ(acltdtStopChannel(h), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtSendTensor(h, d3, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyDataset(r), ACL_SUCCESS);
  free_sent(d1, i1);
  free_sent(d2, i2);
  free_sent(d3, i3);
  CHECK_INT_EQ(acltdtDestroyChannel(h), ACL_SUCCESS); /* frees the queued dataset */
  teardown();
}

TEST(end_of_sequence_and_names) {
  setup();
  acltdtChannelHandle *h = acltdtCreateChannelWithCapacity(0, "eos", 4);
  float b[4];
  acltdtDataItem *it;
  acltdtDataset *ds = one_tensor(b, 5, &it);
  acltdtDataItem *eos = acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, NULL, 0, ACL_FLOAT, NULL, 0);
  acltdtDataset *end = acltdtCreateDataset();
  CHECK_INT_EQ(acltdtAddDataItem(end, eos), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtSendTensor(h, ds, -1), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtSendTensor(h, end, -1), ACL_SUCCESS);
  /* slice items cannot be sent */
  acltdtDataItem *sl = acltdtCreateDataItem(ACL_TENSOR_DATA_SLICE_TENSOR, NULL, 0, ACL_FLOAT, b, 4);
  acltdtDataset *sds = acltdtCreateDataset();
  CHECK_INT_EQ(acltdtAddDataItem(sds, sl), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtSendTensor(h, sds, 0), ACL_ERROR_INVALID_PARAM);
  /* the consumer reads until end of sequence */
  acltdtDataset *r = acltdtCreateDataset();
  int tensors = 0;
  for (;;) {
    CHECK_INT_EQ(acltdtReceiveTensor(h, r, 1000), ACL_SUCCESS);
    CHECK_STR_EQ(acltdtGetDatasetName(r), "");
    acltdtDataItem *x = acltdtGetDataItem(r, 0);
    if (acltdtGetTensorTypeFromItem(x) == ACL_TENSOR_DATA_END_OF_SEQUENCE) {
      CHECK_INT_EQ(acltdtGetDataSizeFromItem(x), 0);
      CHECK_NULL(acltdtGetDataAddrFromItem(x));
      break;
    }
    tensors++;
  }
  CHECK_INT_EQ(tensors, 1);
  CHECK_INT_EQ(acltdtDestroyDataset(r), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyDataset(sds), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyDataItem(sl), ACL_SUCCESS);
  free_sent(end, eos);
  free_sent(ds, it);
  CHECK_INT_EQ(acltdtDestroyChannel(h), ACL_SUCCESS);
  teardown();
}

TEST(device_memory_items) {
  setup();
  acltdtChannelHandle *h = acltdtCreateChannelWithCapacity(0, "dev", 2);
  float host[4] = {7, 8, 9, 10};
  void *dev = NULL;
  CHECK_INT_EQ(aclrtMalloc(&dev, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(dev, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  acltdtDataItem *di = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, NULL, 0, ACL_FLOAT, dev, 16);
  acltdtDataItem *hi = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, NULL, 0, ACL_FLOAT, host, 16);
  acltdtDataset *ds = acltdtCreateDataset();
  CHECK_INT_EQ(acltdtAddDataItem(ds, di), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtAddDataItem(ds, hi), ACL_ERROR_INVALID_PARAM); /* all host or all device */
  CHECK_INT_EQ(acltdtSendTensor(h, ds, 0), ACL_SUCCESS);
  acltdtDataset *r = acltdtCreateDataset();
  CHECK_INT_EQ(acltdtReceiveTensor(h, r, 0), ACL_SUCCESS);
  CHECK_INT_EQ(((float *)acltdtGetDataAddrFromItem(acltdtGetDataItem(r, 0)))[2], 9); /* a host copy */
  CHECK_INT_EQ(acltdtDestroyDataset(r), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyDataset(ds), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyDataItem(di), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyDataItem(hi), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(dev), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyChannel(h), ACL_SUCCESS);
  teardown();
}

/* ---- threads --------------------------------------------------------------- */

#define STREAM_N 200

static void *producer(void *arg) {
  acltdtChannelHandle *h = arg;
  float b[4];
  for (int i = 0; i < STREAM_N; i++) {
    acltdtDataItem *it;
    acltdtDataset *ds = one_tensor(b, (float)i, &it);
    CHECK_INT_EQ(acltdtSendTensor(h, ds, -1), ACL_SUCCESS);
    free_sent(ds, it);
  }
  acltdtDataItem *eos = acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, NULL, 0, ACL_FLOAT, NULL, 0);
  acltdtDataset *end = acltdtCreateDataset();
  CHECK_INT_EQ(acltdtAddDataItem(end, eos), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtSendTensor(h, end, -1), ACL_SUCCESS);
  free_sent(end, eos);
  return NULL;
}

TEST(producer_consumer_threads) {
  setup();
  acltdtChannelHandle *h = acltdtCreateChannelWithCapacity(0, "stream", 3);
  pthread_t t;
  CHECK_INT_EQ(pthread_create(&t, NULL, producer, h), 0);
  acltdtDataset *r = acltdtCreateDataset();
  int next = 0;
  for (;;) {
    CHECK_INT_EQ(acltdtReceiveTensor(h, r, 10000), ACL_SUCCESS);
    acltdtDataItem *x = acltdtGetDataItem(r, 0);
    if (acltdtGetTensorTypeFromItem(x) == ACL_TENSOR_DATA_END_OF_SEQUENCE)
      break;
    CHECK_INT_EQ(((float *)acltdtGetDataAddrFromItem(x))[0], next);
    next++;
  }
  CHECK_INT_EQ(next, STREAM_N);
  CHECK_INT_EQ(pthread_join(t, NULL), 0);
  CHECK_INT_EQ(acltdtDestroyDataset(r), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyChannel(h), ACL_SUCCESS);
  teardown();
}

static void *blocked_receiver(void *arg) {
  acltdtDataset *r = acltdtCreateDataset();
  long rc = acltdtReceiveTensor(arg, r, -1);
  acltdtDestroyDataset(r);
  return (void *)rc;
}

TEST(legacy_channel_rules_and_stop) {
  setup();
  acltdtChannelHandle *send = acltdtCreateChannel(0, "feed");
  acltdtChannelHandle *recv = acltdtCreateChannel(0, "TF_RECEIVE_feed");
  CHECK_NOT_NULL(send);
  CHECK_NOT_NULL(recv);
  CHECK_NULL(acltdtCreateChannel(0, NULL));
  float b[4];
  acltdtDataItem *it;
  acltdtDataset *ds = one_tensor(b, 1, &it);
  acltdtDataset *r = acltdtCreateDataset();
  size_t n = 0;
  CHECK_INT_EQ(acltdtSendTensor(send, ds, 0), ACL_ERROR_INVALID_PARAM); /* only -1 */
  CHECK_INT_EQ(acltdtSendTensor(send, ds, -1), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtReceiveTensor(send, r, -1), ACL_ERROR_INVALID_PARAM); /* a send channel */
  CHECK_INT_EQ(acltdtCleanChannel(send), ACL_ERROR_FEATURE_UNSUPPORTED);
  CHECK_INT_EQ(acltdtQueryChannelSize(send, &n), ACL_ERROR_FEATURE_UNSUPPORTED);
  CHECK_INT_EQ(acltdtSendTensor(recv, ds, -1), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtReceiveTensor(recv, r, 100), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtReceiveTensor(recv, r, -1), ACL_SUCCESS);
  /* stop from a third thread wakes a blocked receiver */
  pthread_t t;
  CHECK_INT_EQ(pthread_create(&t, NULL, blocked_receiver, recv), 0);
  struct timespec nap = {0, 50 * 1000000L};
  nanosleep(&nap, NULL);
  CHECK_INT_EQ(acltdtStopChannel(recv), ACL_SUCCESS);
  void *ret = NULL;
  CHECK_INT_EQ(pthread_join(t, &ret), 0);
  CHECK_INT_EQ((long)ret, ACL_ERROR_FAILURE);
  CHECK_INT_EQ(acltdtDestroyDataset(r), ACL_SUCCESS);
  free_sent(ds, it);
  CHECK_INT_EQ(acltdtDestroyChannel(send), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyChannel(recv), ACL_SUCCESS);
  teardown();
}

/* ---- the vendor's samples (tdt_channel/0_simple_channel, 1_channel_capacity) */

TEST(sample_simple_channel) {
  setup();
  acltdtChannelHandle *h = acltdtCreateChannelWithCapacity(0, "simple_tdt_channel", 2);
  CHECK_NOT_NULL(h);
  float data[4] = {1, 2, 3, 4};
  int64_t dims[2] = {1, 4};
  acltdtDataItem *it = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, data, sizeof data);
  acltdtDataset *ds = acltdtCreateDataset();
  CHECK_INT_EQ(acltdtAddDataItem(ds, it), ACL_SUCCESS);
  printf("Dataset size: %zu\n", acltdtGetDatasetSize(ds));
  CHECK_INT_EQ(acltdtSendTensor(h, ds, 1000), ACL_SUCCESS);
  size_t n = 0;
  CHECK_INT_EQ(acltdtQueryChannelSize(h, &n), ACL_SUCCESS);
  printf("Channel size after send: %zu\n", n);
  CHECK_INT_EQ(n, 1);
  acltdtDataset *r = acltdtCreateDataset();
  CHECK_INT_EQ(acltdtReceiveTensor(h, r, 1000), ACL_SUCCESS);
  acltdtDataItem *x = acltdtGetDataItem(r, 0);
  int64_t d[2];
  CHECK_INT_EQ(acltdtGetDimsFromItem(x, d, 2), ACL_SUCCESS);
  printf("Tensor type=%d, data type=%d, bytes=%zu, dims=(%lld, %lld), firstValue=%.3f\n",
         (int)acltdtGetTensorTypeFromItem(x), (int)acltdtGetDataTypeFromItem(x), acltdtGetDataSizeFromItem(x),
         (long long)d[0], (long long)d[1], *(float *)acltdtGetDataAddrFromItem(x));
  CHECK_INT_EQ(acltdtGetDataSizeFromItem(x), 16);
  CHECK_INT_EQ(acltdtQueryChannelSize(h, &n), ACL_SUCCESS);
  printf("Channel size after receive: %zu\n", n);
  CHECK_INT_EQ(n, 0);
  CHECK_INT_EQ(acltdtCleanChannel(h), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtStopChannel(h), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyChannel(h), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyDataset(r), ACL_SUCCESS);
  free_sent(ds, it);
  printf("Run the simple_channel sample successfully.\n");
  teardown();
}

TEST(sample_channel_capacity) {
  setup();
  acltdtChannelHandle *h = acltdtCreateChannelWithCapacity(0, "capacity_tdt_channel", 2);
  CHECK_NOT_NULL(h);
  float b[4];
  acltdtDataItem *it;
  acltdtDataset *ds = one_tensor(b, 1, &it);
  size_t sn = 9, sid = 9, n = 0;
  CHECK_INT_EQ(acltdtGetSliceInfoFromItem(it, &sn, &sid), ACL_SUCCESS);
  printf("Slice info: sliceNum=%zu, sliceId=%zu, type=%d, dataset name='%s'\n", sn, sid,
         (int)acltdtGetTensorTypeFromItem(it), acltdtGetDatasetName(ds));
  CHECK_INT_EQ(acltdtSendTensor(h, ds, 1000), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtQueryChannelSize(h, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 1);
  CHECK_INT_EQ(acltdtSendTensor(h, ds, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtQueryChannelSize(h, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 2);
  aclError third = acltdtSendTensor(h, ds, 0);
  printf("Third send ret under capacity pressure: %d\n", (int)third);
  CHECK_INT_EQ(third, 207014);
  CHECK_INT_EQ(acltdtDestroyChannel(h), ACL_SUCCESS);
  free_sent(ds, it);
  printf("Run the channel_capacity sample successfully.\n");
  teardown();
}
