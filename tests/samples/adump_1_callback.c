/*
 * adump_1_callback.c - in the style of the vendor's
 * example/5_performance/adump/1_adump_callback: while a dump callback is
 * registered, the dump files of an execution arrive in chunks instead of on
 * the disk.  The callback checks len == sizeof(acldumpChunk) + bufLen (else
 * returns -1), logs each chunk and keeps a per-file summary.  The work is
 * an aclnnAdd of two 4x2 tensors, dumped because ./acl.json turns
 * dump_op_switch on, as in the vendor's sample.  run_sample.sh checks the
 * lines and that no file was written.
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "model_ri_common.h"

#define MAX_FILES 16

static struct {
  char name[ACL_DUMP_MAX_FILE_PATH_LENGTH];
  unsigned chunks;
  unsigned long long bytes;
  int last;
} files[MAX_FILES];
static int nFiles, badChunks;

static int32_t DumpCallback(const acldumpChunk *chunk, int32_t len) {
  if (chunk == NULL || len < 0 || (size_t)len != sizeof(acldumpChunk) + chunk->bufLen) {
    badChunks++;
    printf("[ERROR] chunk length %d is not sizeof(acldumpChunk) + bufLen\n", len);
    return -1;
  }
  char preview[3 * 16 + 1] = "";
  for (uint32_t i = 0; i < chunk->bufLen && i < 16; i++)
    snprintf(preview + 3 * i, sizeof(preview) - 3 * i, "%02x ", chunk->dataBuf[i]);
  printf("[INFO] file %s bufLen %u isLastChunk %u offset %lld flag %d data %s\n", chunk->fileName, chunk->bufLen,
         chunk->isLastChunk, (long long)chunk->offset, chunk->flag, preview);
  int f = 0;
  while (f < nFiles && strcmp(files[f].name, chunk->fileName) != 0)
    f++;
  if (f == nFiles) {
    if (nFiles == MAX_FILES)
      return 0;
    snprintf(files[nFiles++].name, sizeof(files[0].name), "%s", chunk->fileName);
  }
  if ((unsigned long long)chunk->offset != files[f].bytes)
    badChunks++; /* chunks of a file come in order */
  files[f].chunks++;
  files[f].bytes += chunk->bufLen;
  files[f].last = chunk->isLastChunk != 0;
  return 0;
}

int main(void) {
  aclError ret = aclInit("./acl.json");
  if (ret != ACL_SUCCESS) {
    printf("[ERROR] aclInit failed: %d %s\n", ret, aclGetRecentErrMsg());
    return 1;
  }
  aclrtSetDevice(0);
  ret = acldumpRegCallback(DumpCallback, 0);
  if (ret != ACL_SUCCESS) {
    printf("[ERROR] acldumpRegCallback failed: %d %s\n", ret, aclGetRecentErrMsg());
    return 1;
  }
  const char *dumpPath = acldumpGetPath(DATA_DUMP);
  if (dumpPath == NULL)
    printf("[WARN] acldumpGetPath returned NULL\n");
  else
    printf("[INFO] dump path: %s\n", dumpPath);

  aclrtStream stream = NULL;
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
  const float self[8] = {0, 1, 2, 3, 4, 5, 6, 7}, other[8] = {1, 1, 1, 2, 2, 2, 4, 4};
  void *selfDev = NULL, *otherDev = NULL, *outDev = NULL;
  aclTensor *tSelf = NULL, *tOther = NULL, *tOut = NULL;
  if (CreateTensor(self, 8, &selfDev, &tSelf) != 0 || CreateTensor(other, 8, &otherDev, &tOther) != 0 ||
      CreateTensor(NULL, 8, &outDev, &tOut) != 0 || RunAdd(tSelf, tOther, 1.0f, tOut, stream) != 0)
    return 1;
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  if (PrintDevice("[INFO] add result", outDev, 8) != 0)
    return 1;
  acldumpUnregCallback();
  aclDestroyTensor(tSelf);
  aclDestroyTensor(tOther);
  aclDestroyTensor(tOut);
  aclrtFree(selfDev);
  aclrtFree(otherDev);
  aclrtFree(outDev);
  aclrtDestroyStream(stream);

  for (int f = 0; f < nFiles; f++)
    printf("[INFO] summary: %s chunks %u bytes %llu last %d\n", files[f].name, files[f].chunks, files[f].bytes,
           files[f].last);
  printf("[INFO] %d files, %d bad chunks\n", nFiles, badChunks);
  aclrtResetDevice(0);
  aclFinalize();
  return badChunks == 0 && nFiles > 0 ? 0 : 1;
}
