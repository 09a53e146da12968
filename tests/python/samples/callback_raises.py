"""callback_raises.py - a launch_callback function that raises (pyACL §3.6):
the exception is reported through sys.unraisablehook on the report thread
and cleared; the report loop, the stream and later callbacks go on.

    python3 callback_raises.py

Prints one JSON line of what happened.
"""
import json
import sys
import threading

import acl
from constant import ACL_CALLBACK_BLOCK, ACL_CALLBACK_NO_BLOCK, ACL_MEMCPY_HOST_TO_DEVICE, ACL_SUCCESS

unraisable = []


def hook(info):
    unraisable.append({"type": info.exc_type.__name__, "value": str(info.exc_value),
                       "thread": threading.get_ident()})


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise Exception("{} failed ret={}: {}".format(message, ret, acl.get_recent_err_msg()))


class Reporter(object):
    def __init__(self):
        self.run_flag = True
        self.returns = set()
        self.calls = []

    def process(self, args_list):
        context, timeout = args_list
        check_ret("acl.rt.set_context", acl.rt.set_context(context))
        while self.run_flag:
            self.returns.add(acl.rt.process_report(timeout))

    def bad(self, data):
        self.calls.append(("bad", data))
        raise ValueError("callback failed on purpose: %s" % data)

    def good(self, data):
        self.calls.append(("good", data))


def main():
    sys.unraisablehook = hook
    check_ret("acl.init", acl.init())
    check_ret("acl.rt.set_device", acl.rt.set_device(0))
    context, ret = acl.rt.create_context(0)
    check_ret("acl.rt.create_context", ret)
    stream, ret = acl.rt.create_stream()
    check_ret("acl.rt.create_stream", ret)
    r = Reporter()
    tid, ret = acl.util.start_thread(r.process, [context, 50])
    check_ret("acl.util.start_thread", ret)
    check_ret("acl.rt.subscribe_report", acl.rt.subscribe_report(tid, stream))

    check_ret("acl.rt.launch_callback", acl.rt.launch_callback(r.bad, "first", ACL_CALLBACK_BLOCK, stream))
    check_ret("acl.rt.launch_callback", acl.rt.launch_callback(r.good, "second", ACL_CALLBACK_BLOCK, stream))
    sync1 = acl.rt.synchronize_stream(stream)
    # the runtime goes on: a copy and more callbacks on the same stream
    dev, ret = acl.rt.malloc(16, 0)
    check_ret("acl.rt.malloc", ret)
    src = b"0123456789abcdef"
    check_ret("acl.rt.memcpy_async", acl.rt.memcpy_async(dev, 16, acl.util.bytes_to_ptr(src), 16,
                                                         ACL_MEMCPY_HOST_TO_DEVICE, stream))
    check_ret("acl.rt.launch_callback", acl.rt.launch_callback(r.bad, "third", ACL_CALLBACK_NO_BLOCK, stream))
    check_ret("acl.rt.launch_callback", acl.rt.launch_callback(r.good, "fourth", ACL_CALLBACK_BLOCK, stream))
    sync2 = acl.rt.synchronize_stream(stream)
    dst = bytes(16)
    check_ret("acl.rt.memcpy", acl.rt.memcpy(acl.util.bytes_to_ptr(dst), 16, dev, 16, 2))

    check_ret("acl.rt.unsubscribe_report", acl.rt.unsubscribe_report(tid, stream))
    r.run_flag = False
    stop = acl.util.stop_thread(tid)
    check_ret("acl.rt.free", acl.rt.free(dev))
    check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
    check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
    check_ret("acl.rt.reset_device", acl.rt.reset_device(0))
    check_ret("acl.finalize", acl.finalize())
    print(json.dumps({"tid": tid, "unraisable": unraisable, "calls": r.calls, "sync": [sync1, sync2],
                      "stop_thread": stop, "copy_ok": dst == src}))


if __name__ == "__main__":
    main()
