"""dynamic_desc.py - a model whose batch axis is symbolic, run without gears:
the input's actual shape is given by a tensor descriptor on the input
dataset (acl.create_tensor_desc + acl.mdl.set_dataset_tensor_desc), the
output buffer sized from the output dims with the batch filled in, and the
actual output shape read back from the output dataset's tensor descriptor
(acl.mdl.get_dataset_tensor_desc).  The vendor flow otherwise (resnet50
sample style); one model, several batch sizes.

    python3 dynamic_desc.py MODEL OUT_DIR INPUT.npy [INPUT.npy ...]

Each INPUT.npy is one execution (its first dimension is the batch); writes
OUT_DIR/output_<k>.npy and prints one JSON line of facts.
"""
import json
import os
import sys

import numpy as np

import acl
from constant import (ACL_FLOAT, ACL_FORMAT_NCHW, ACL_FORMAT_ND, ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_DEVICE_TO_HOST,
                      ACL_MEMCPY_HOST_TO_DEVICE, ACL_SUCCESS)


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise Exception("{} failed ret={}: {}".format(message, ret, acl.get_recent_err_msg()))


class DynamicNet(object):
    def __init__(self, model_path, device_id=0):
        self.device_id = device_id
        ret = acl.init()
        check_ret("acl.init", ret)
        ret = acl.rt.set_device(device_id)
        check_ret("acl.rt.set_device", ret)
        self.context, ret = acl.rt.create_context(device_id)
        check_ret("acl.rt.create_context", ret)
        self.model_id, ret = acl.mdl.load_from_file(model_path)
        check_ret("acl.mdl.load_from_file", ret)
        self.model_desc = acl.mdl.create_desc()
        check_ret("acl.mdl.get_desc", acl.mdl.get_desc(self.model_desc, self.model_id))
        self.in_dims = acl.mdl.get_input_dims(self.model_desc, 0)[0]["dims"]
        self.out_dims = acl.mdl.get_output_dims(self.model_desc, 0)[0]["dims"]

    def run(self, image):
        batch = image.shape[0]
        facts = {"declared_input_size": acl.mdl.get_input_size_by_index(self.model_desc, 0),
                 "declared_input_dims": self.in_dims}
        in_bytes = image.tobytes()
        out_shape = [batch if d < 0 else d for d in self.out_dims]
        out_size = int(np.prod(out_shape)) * 4
        in_dev, ret = acl.rt.malloc(len(in_bytes), ACL_MEM_MALLOC_HUGE_FIRST)
        check_ret("acl.rt.malloc", ret)
        out_dev, ret = acl.rt.malloc(out_size, ACL_MEM_MALLOC_HUGE_FIRST)
        check_ret("acl.rt.malloc", ret)
        ret = acl.rt.memcpy(in_dev, len(in_bytes), acl.util.bytes_to_ptr(in_bytes), len(in_bytes),
                            ACL_MEMCPY_HOST_TO_DEVICE)
        check_ret("acl.rt.memcpy", ret)
        in_ds, out_ds = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        in_buf = acl.create_data_buffer(in_dev, len(in_bytes))
        out_buf = acl.create_data_buffer(out_dev, out_size)
        check_ret("acl.mdl.add_dataset_buffer", acl.mdl.add_dataset_buffer(in_ds, in_buf)[1])
        check_ret("acl.mdl.add_dataset_buffer", acl.mdl.add_dataset_buffer(out_ds, out_buf)[1])
        fmt = ACL_FORMAT_NCHW if image.ndim == 4 else ACL_FORMAT_ND
        tensor_desc = acl.create_tensor_desc(ACL_FLOAT, list(image.shape), fmt)
        if not tensor_desc:
            raise Exception("acl.create_tensor_desc failed")
        _, ret = acl.mdl.set_dataset_tensor_desc(in_ds, tensor_desc, 0)
        check_ret("acl.mdl.set_dataset_tensor_desc", ret)
        ret = acl.mdl.execute(self.model_id, in_ds, out_ds)
        check_ret("acl.mdl.execute", ret)
        out_desc = acl.mdl.get_dataset_tensor_desc(out_ds, 0)
        if not out_desc:
            raise Exception("no output tensor descriptor after the run")
        shape = tuple(acl.get_tensor_desc_dim(out_desc, i) for i in range(acl.get_tensor_desc_num_dims(out_desc)))
        facts["output_shape"] = list(shape)
        nbytes = int(np.prod(shape)) * 4
        host, ret = acl.rt.malloc_host(nbytes)
        check_ret("acl.rt.malloc_host", ret)
        check_ret("acl.rt.memcpy", acl.rt.memcpy(host, nbytes, out_dev, nbytes, ACL_MEMCPY_DEVICE_TO_HOST))
        result = np.frombuffer(acl.util.ptr_to_bytes(host, nbytes), np.float32).reshape(shape)
        check_ret("acl.rt.free_host", acl.rt.free_host(host))
        acl.destroy_tensor_desc(tensor_desc)
        for ds, buf in ((in_ds, in_buf), (out_ds, out_buf)):
            check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(buf))
            check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(ds))
        check_ret("acl.rt.free", acl.rt.free(in_dev))
        check_ret("acl.rt.free", acl.rt.free(out_dev))
        return result, facts

    def release(self):
        check_ret("acl.mdl.unload", acl.mdl.unload(self.model_id))
        check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(self.model_desc))
        check_ret("acl.rt.destroy_context", acl.rt.destroy_context(self.context))
        check_ret("acl.rt.reset_device", acl.rt.reset_device(self.device_id))
        check_ret("acl.finalize", acl.finalize())


if __name__ == "__main__":
    model_path, out_dir, input_files = sys.argv[1], sys.argv[2], sys.argv[3:]
    net = DynamicNet(model_path)
    facts = []
    for k, f in enumerate(input_files):
        result, fact = net.run(np.load(f))
        np.save(os.path.join(out_dir, "output_%d.npy" % k), result)
        facts.append(fact)
    net.release()
    print(json.dumps(facts))
