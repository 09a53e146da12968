/* hccl/hccl_comm.h - the newer layout's communicator header: everything is in hccl/hccl.h. */
#ifndef HCCL_COMM_H_
#define HCCL_COMM_H_
#include "hccl/hccl.h"
#endif
