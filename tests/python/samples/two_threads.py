"""two_threads.py - two Python threads run one model at the same time, each
on its own stream with its own buffers; each thread sets the shared context
first (a new thread has no current context, pyACL §3.6).

Two rounds: "sync" (acl.mdl.execute) and "async" (acl.mdl.execute_async +
acl.rt.synchronize_stream).  In each round thread A announces that it is
about to execute and calls the model; thread B waits for the announcement,
sleeps 20 ms, notes the time and starts its own execution.  B can run Python
code during A's execution only if A's call released the GIL, so
B's start < A's end shows the release (and the two executions overlap).

    python3 two_threads.py MODEL OUT_DIR IN_A.npy IN_B.npy

Writes OUT_DIR/<round>_<a|b>.npy and prints one JSON line: per round and
thread [start, end] in seconds.
"""
import json
import os
import sys
import threading
import time

import numpy as np

import acl
from constant import ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_SUCCESS


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise Exception("{} failed ret={}: {}".format(message, ret, acl.get_recent_err_msg()))


class Worker(object):
    def __init__(self, name, net, data):
        self.name = name
        self.net = net
        self.data = data
        self.times = {}
        self.outputs = {}
        self.error = None

    def setup(self):
        net = self.net
        check_ret("acl.rt.set_context", acl.rt.set_context(net.context))
        self.stream, ret = acl.rt.create_stream()
        check_ret("acl.rt.create_stream", ret)
        self.datasets = []
        self.buffers = []
        for num, size_of in ((net.num_in, acl.mdl.get_input_size_by_index),
                             (net.num_out, acl.mdl.get_output_size_by_index)):
            ds = acl.mdl.create_dataset()
            for i in range(num):
                size = size_of(net.desc, i)
                buf, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
                check_ret("acl.rt.malloc", ret)
                db = acl.create_data_buffer(buf, size)
                check_ret("acl.mdl.add_dataset_buffer", acl.mdl.add_dataset_buffer(ds, db)[1])
                self.buffers.append((buf, size, db))
            self.datasets.append(ds)
        in_bytes = self.data.tobytes()
        buf, size, _ = self.buffers[0]
        check_ret("acl.rt.memcpy", acl.rt.memcpy(buf, size, acl.util.bytes_to_ptr(in_bytes), len(in_bytes),
                                                 ACL_MEMCPY_HOST_TO_DEVICE))

    def execute(self, mode):
        t0 = time.perf_counter()
        if mode == "sync":
            check_ret("acl.mdl.execute", acl.mdl.execute(self.net.model_id, self.datasets[0], self.datasets[1]))
        else:
            check_ret("acl.mdl.execute_async",
                      acl.mdl.execute_async(self.net.model_id, self.datasets[0], self.datasets[1], self.stream))
            check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(self.stream))
        t1 = time.perf_counter()
        self.times[mode] = [t0, t1]
        buf, size, _ = self.buffers[-1]
        host = bytes(size)
        check_ret("acl.rt.memcpy", acl.rt.memcpy(acl.util.bytes_to_ptr(host), size, buf, size,
                                                 ACL_MEMCPY_DEVICE_TO_HOST))
        self.outputs[mode] = np.frombuffer(host, np.float32).reshape(self.data.shape).copy()

    def release(self):
        for ds in self.datasets:
            check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(ds))
        for buf, _, db in self.buffers:
            check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(db))
            check_ret("acl.rt.free", acl.rt.free(buf))
        check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(self.stream))


class Net(object):
    def __init__(self, model_path):
        check_ret("acl.init", acl.init())
        check_ret("acl.rt.set_device", acl.rt.set_device(0))
        self.context, ret = acl.rt.create_context(0)
        check_ret("acl.rt.create_context", ret)
        self.model_id, ret = acl.mdl.load_from_file(model_path)
        check_ret("acl.mdl.load_from_file", ret)
        self.desc = acl.mdl.create_desc()
        check_ret("acl.mdl.get_desc", acl.mdl.get_desc(self.desc, self.model_id))
        self.num_in = acl.mdl.get_num_inputs(self.desc)
        self.num_out = acl.mdl.get_num_outputs(self.desc)

    def release(self):
        check_ret("acl.mdl.unload", acl.mdl.unload(self.model_id))
        check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(self.desc))
        check_ret("acl.rt.destroy_context", acl.rt.destroy_context(self.context))
        check_ret("acl.rt.reset_device", acl.rt.reset_device(0))
        check_ret("acl.finalize", acl.finalize())


def main():
    model_path, out_dir, in_a, in_b = sys.argv[1:5]
    net = Net(model_path)
    a = Worker("a", net, np.load(in_a))
    b = Worker("b", net, np.load(in_b))
    barrier = threading.Barrier(2)
    announced = {"sync": threading.Event(), "async": threading.Event()}

    def run(worker):
        try:
            worker.setup()
            for mode in ("sync", "async"):
                barrier.wait()
                if worker is a:
                    announced[mode].set()
                    worker.execute(mode)
                else:
                    announced[mode].wait()
                    time.sleep(0.02)
                    worker.execute(mode)
                barrier.wait()
            worker.release()
        except Exception as exc:  # reported in the JSON line
            worker.error = repr(exc)
            barrier.abort()

    threads = [threading.Thread(target=run, args=(w,)) for w in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for w in (a, b):
        for mode, out in w.outputs.items():
            np.save(os.path.join(out_dir, "%s_%s.npy" % (mode, w.name)), out)
    net.release()
    print(json.dumps({"a": a.times, "b": b.times, "errors": [a.error, b.error]}))


if __name__ == "__main__":
    main()
