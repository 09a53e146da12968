"""acllite_resource.py - AclLiteResource as in Ascend/samples
python/common/acllite/acllite_resource.py: initialises ACL, the device, a
context and a stream, and releases them, with the models registered on it
first, in release() or in __del__ (which may run at interpreter exit)."""
import acl

from constant import ACL_SUCCESS


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise Exception("{} failed ret={}: {}".format(message, ret, acl.get_recent_err_msg()))


class AclLiteResource(object):
    def __init__(self, device_id=0):
        self.device_id = device_id
        self.context = None
        self.stream = None
        self.run_mode = None
        self.models = []
        self._released = False

    def init(self):
        print("init resource stage:")
        ret = acl.init()
        check_ret("acl.init", ret)
        ret = acl.rt.set_device(self.device_id)
        check_ret("acl.rt.set_device", ret)
        self.context, ret = acl.rt.create_context(self.device_id)
        check_ret("acl.rt.create_context", ret)
        self.stream, ret = acl.rt.create_stream()
        check_ret("acl.rt.create_stream", ret)
        self.run_mode, ret = acl.rt.get_run_mode()
        check_ret("acl.rt.get_run_mode", ret)
        print("Init resource success")

    def register(self, model):
        self.models.append(model)

    def release(self):
        if self._released:
            return
        print("acl resource release all resource")
        for model in self.models:
            model.destroy()
        self.models = []
        if self.stream:
            acl.rt.destroy_stream(self.stream)
            self.stream = None
        if self.context:
            acl.rt.destroy_context(self.context)
            self.context = None
        acl.rt.reset_device(self.device_id)
        acl.finalize()
        self._released = True
        print("Release acl resource success")

    def __del__(self):
        self.release()
