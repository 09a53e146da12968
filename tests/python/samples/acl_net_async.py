"""acl_net_async.py - asynchronous inference with a report thread, written as
the vendor's resnet50_async_imagenet_classification/src/acl_net.py is
(pyACL §3.6, steps 1-6):

  1. acl.util.start_thread runs a function that sets the context and loops
     on acl.rt.process_report until a flag is set;
  2. acl.rt.subscribe_report(tid, stream);
  3. per image: copy in, acl.mdl.execute_async, acl.rt.launch_callback with
     a BLOCK callback that copies that image's outputs back (malloc_host,
     memcpy, ptr_to_bytes, mdl.get_* on the report thread);
  4. acl.rt.synchronize_stream;  5. acl.rt.unsubscribe_report;
  6. clear the flag, acl.util.stop_thread.

    python3 acl_net_async.py MODEL OUT_DIR IN_DIR

IN_DIR holds input_<k>_<i>.npy (image k, model input i); writes
OUT_DIR/output_<k>_<i>.npy and prints one JSON line of facts the test checks.
"""
import glob
import json
import os
import sys
import threading

import numpy as np

import acl
from constant import (ACL_CALLBACK_BLOCK, ACL_FLOAT, ACL_FLOAT16, ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_DEVICE_TO_HOST,
                      ACL_MEMCPY_HOST_TO_DEVICE, ACL_SUCCESS)

ACL_TO_NUMPY = {ACL_FLOAT: np.float32, ACL_FLOAT16: np.float16}


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise Exception("{} failed ret={}: {}".format(message, ret, acl.get_recent_err_msg()))


class Net(object):
    def __init__(self, device_id, model_path):
        self.device_id = device_id
        self.model_path = model_path
        self.context = None
        self.stream = None
        self.model_id = None
        self.model_desc = None
        self.callback_run_flag = True
        self.tid = None
        self.jobs = []          # per image: device buffers and datasets
        self.results = {}       # image -> [numpy outputs], filled by the callback
        self.callback_threads = set()
        self.process_report_returns = set()
        self.init_resource()

    def init_resource(self):
        ret = acl.init()
        check_ret("acl.init", ret)
        ret = acl.rt.set_device(self.device_id)
        check_ret("acl.rt.set_device", ret)
        self.context, ret = acl.rt.create_context(self.device_id)
        check_ret("acl.rt.create_context", ret)
        self.stream, ret = acl.rt.create_stream()
        check_ret("acl.rt.create_stream", ret)
        self.load_model()

    def load_model(self):
        self.model_id, ret = acl.mdl.load_from_file(self.model_path)
        check_ret("acl.mdl.load_from_file", ret)
        self.model_desc = acl.mdl.create_desc()
        ret = acl.mdl.get_desc(self.model_desc, self.model_id)
        check_ret("acl.mdl.get_desc", ret)

    def _gen_dataset(self, sizes):
        dataset = acl.mdl.create_dataset()
        buffers = []
        for size in sizes:
            buf, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            check_ret("acl.rt.malloc", ret)
            data = acl.create_data_buffer(buf, size)
            _, ret = acl.mdl.add_dataset_buffer(dataset, data)
            check_ret("acl.mdl.add_dataset_buffer", ret)
            buffers.append({"buffer": buf, "size": size})
        return dataset, buffers

    def _process_callback(self, args_list):
        context, timeout = args_list
        ret = acl.rt.set_context(context)
        check_ret("acl.rt.set_context", ret)
        while self.callback_run_flag is True:
            ret = acl.rt.process_report(timeout)  # 507012 (timeout) is ignored
            self.process_report_returns.add(ret)
        print("[Callback] exit acl.rt.process_report")

    def _get_callback(self, args_list):
        """Runs inside process_report on the report thread."""
        image, outputs = args_list
        self.callback_threads.add(threading.get_ident())
        result = []
        for i, item in enumerate(outputs):
            host, ret = acl.rt.malloc_host(item["size"])
            check_ret("acl.rt.malloc_host", ret)
            ret = acl.rt.memcpy(host, item["size"], item["buffer"], item["size"], ACL_MEMCPY_DEVICE_TO_HOST)
            check_ret("acl.rt.memcpy", ret)
            dims, ret = acl.mdl.get_cur_output_dims(self.model_desc, i)
            check_ret("acl.mdl.get_cur_output_dims", ret)
            dtype = ACL_TO_NUMPY[acl.mdl.get_output_data_type(self.model_desc, i)]
            data = np.frombuffer(acl.util.ptr_to_bytes(host, item["size"]), dtype=dtype).reshape(tuple(dims["dims"]))
            result.append(data)
            ret = acl.rt.free_host(host)
            check_ret("acl.rt.free_host", ret)
        self.results[image] = result

    def forward(self, images):
        num_in = acl.mdl.get_num_inputs(self.model_desc)
        num_out = acl.mdl.get_num_outputs(self.model_desc)
        in_sizes = [acl.mdl.get_input_size_by_index(self.model_desc, i) for i in range(num_in)]
        out_sizes = [acl.mdl.get_output_size_by_index(self.model_desc, i) for i in range(num_out)]

        self.tid, ret = acl.util.start_thread(self._process_callback, [self.context, 50])
        check_ret("acl.util.start_thread", ret)
        ret = acl.rt.subscribe_report(self.tid, self.stream)
        check_ret("acl.rt.subscribe_report", ret)

        keep = []  # host bytes stay alive until the stream is synchronised
        for k, image in enumerate(images):
            in_dataset, in_buffers = self._gen_dataset(in_sizes)
            out_dataset, out_buffers = self._gen_dataset(out_sizes)
            self.jobs.append((in_dataset, in_buffers, out_dataset, out_buffers))
            for i, item in enumerate(in_buffers):
                bytes_data = image[i].tobytes()
                keep.append(bytes_data)
                ptr = acl.util.bytes_to_ptr(bytes_data)
                ret = acl.rt.memcpy_async(item["buffer"], item["size"], ptr, len(bytes_data),
                                          ACL_MEMCPY_HOST_TO_DEVICE, self.stream)
                check_ret("acl.rt.memcpy_async", ret)
            ret = acl.mdl.execute_async(self.model_id, in_dataset, out_dataset, self.stream)
            check_ret("acl.mdl.execute_async", ret)
            ret = acl.rt.launch_callback(self._get_callback, [k, out_buffers], ACL_CALLBACK_BLOCK, self.stream)
            check_ret("acl.rt.launch_callback", ret)

        ret = acl.rt.synchronize_stream(self.stream)
        check_ret("acl.rt.synchronize_stream", ret)
        ret = acl.rt.unsubscribe_report(self.tid, self.stream)
        check_ret("acl.rt.unsubscribe_report", ret)
        self.callback_run_flag = False
        ret = acl.util.stop_thread(self.tid)
        check_ret("acl.util.stop_thread", ret)
        return [self.results[k] for k in range(len(images))]

    def release_resource(self):
        for in_dataset, in_buffers, out_dataset, out_buffers in self.jobs:
            for dataset in (in_dataset, out_dataset):
                for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
                    data_buf = acl.mdl.get_dataset_buffer(dataset, i)
                    if data_buf:
                        check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(data_buf))
                check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))
            for item in in_buffers + out_buffers:
                check_ret("acl.rt.free", acl.rt.free(item["buffer"]))
        self.jobs = []
        check_ret("acl.mdl.unload", acl.mdl.unload(self.model_id))
        check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(self.model_desc))
        check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(self.stream))
        check_ret("acl.rt.destroy_context", acl.rt.destroy_context(self.context))
        check_ret("acl.rt.reset_device", acl.rt.reset_device(self.device_id))
        check_ret("acl.finalize", acl.finalize())


if __name__ == "__main__":
    model_path, out_dir, in_dir = sys.argv[1:4]
    files = sorted(glob.glob(os.path.join(in_dir, "input_*_*.npy")))
    count = 1 + max(int(os.path.basename(f).split("_")[1]) for f in files)
    width = 1 + max(int(os.path.basename(f).split("_")[2].split(".")[0]) for f in files)
    images = [[np.load(os.path.join(in_dir, "input_%d_%d.npy" % (k, i))) for i in range(width)] for k in range(count)]
    net = Net(0, model_path)
    results = net.forward(images)
    for k, outs in enumerate(results):
        for i, out in enumerate(outs):
            np.save(os.path.join(out_dir, "output_%d_%d.npy" % (k, i)), out)
    facts = {"tid": net.tid, "callback_threads": sorted(net.callback_threads), "images": len(results),
             "process_report_returns": sorted(net.process_report_returns)}
    net.release_resource()
    print(json.dumps(facts))
