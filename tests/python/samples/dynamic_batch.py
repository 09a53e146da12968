"""dynamic_batch.py - a model with batch gears, written as the vendor's
googlenet_imagenet_dynamic_batch/src/classify.py is: every model input gets
get_input_size_by_index bytes of device memory (the largest gear, and the
extra "ascend_mbatch_shape_data" input), the script checks the batch against
get_dynamic_batch, chooses it with set_dynamic_batch_size, executes, and
reads the gear's output shape with get_cur_output_dims.

On Ascend the gears come from ATC (--dynamic_batch_size); on openacl from
OPENACL_DYNAMIC_BATCH="1,2,4,8" in the environment at load: the script
itself is the same.

    OPENACL_DYNAMIC_BATCH=1,2,4,8 python3 dynamic_batch.py MODEL OUT_DIR INPUT.npy [INPUT.npy ...]

Each INPUT.npy is one execution of input 0 (its first dimension is the
batch); writes OUT_DIR/output_<k>.npy (output 0 of execution k).
"""
import json
import os
import sys

import numpy as np

import acl
from constant import (ACL_DYNAMIC_TENSOR_NAME, ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_DEVICE_TO_HOST,
                      ACL_MEMCPY_HOST_TO_DEVICE, ACL_SUCCESS)


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise Exception("{} failed ret={}: {}".format(message, ret, acl.get_recent_err_msg()))


class Classify(object):
    def __init__(self, model_path, device_id=0):
        self.device_id = device_id
        self.model_path = model_path
        self.context = None
        self.model_id = None
        self.model_desc = None
        self.input_dataset = None
        self.output_dataset = None
        self.input_buffers = []
        self.output_buffers = []
        self.init_resource()

    def init_resource(self):
        ret = acl.init()
        check_ret("acl.init", ret)
        ret = acl.rt.set_device(self.device_id)
        check_ret("acl.rt.set_device", ret)
        self.context, ret = acl.rt.create_context(self.device_id)
        check_ret("acl.rt.create_context", ret)
        self.model_id, ret = acl.mdl.load_from_file(self.model_path)
        check_ret("acl.mdl.load_from_file", ret)
        self.model_desc = acl.mdl.create_desc()
        ret = acl.mdl.get_desc(self.model_desc, self.model_id)
        check_ret("acl.mdl.get_desc", ret)
        self.input_dataset, self.input_buffers = self._prepare_dataset(
            acl.mdl.get_num_inputs(self.model_desc), acl.mdl.get_input_size_by_index)
        self.output_dataset, self.output_buffers = self._prepare_dataset(
            acl.mdl.get_num_outputs(self.model_desc), acl.mdl.get_output_size_by_index)

    def _prepare_dataset(self, num, size_by_index):
        dataset = acl.mdl.create_dataset()
        buffers = []
        for i in range(num):
            size = size_by_index(self.model_desc, i)
            buf, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            check_ret("acl.rt.malloc", ret)
            data = acl.create_data_buffer(buf, size)
            _, ret = acl.mdl.add_dataset_buffer(dataset, data)
            check_ret("acl.mdl.add_dataset_buffer", ret)
            buffers.append({"buffer": buf, "size": size, "data": data})
        return dataset, buffers

    def set_batch(self, batch):
        index, ret = acl.mdl.get_input_index_by_name(self.model_desc, ACL_DYNAMIC_TENSOR_NAME)
        check_ret("acl.mdl.get_input_index_by_name", ret)
        info, ret = acl.mdl.get_dynamic_batch(self.model_desc)
        check_ret("acl.mdl.get_dynamic_batch", ret)
        if batch not in info["batch"]:
            raise Exception("batch {} is not one of the model's gears {}".format(batch, info["batch"]))
        ret = acl.mdl.set_dynamic_batch_size(self.model_id, self.input_dataset, index, batch)
        check_ret("acl.mdl.set_dynamic_batch_size", ret)
        return index, info

    def run(self, image):
        batch = image.shape[0]
        bytes_data = image.tobytes()
        item = self.input_buffers[0]
        ret = acl.rt.memcpy(item["buffer"], item["size"], acl.util.bytes_to_ptr(bytes_data), len(bytes_data),
                            ACL_MEMCPY_HOST_TO_DEVICE)
        check_ret("acl.rt.memcpy", ret)
        index, info = self.set_batch(batch)
        ret = acl.mdl.execute(self.model_id, self.input_dataset, self.output_dataset)
        check_ret("acl.mdl.execute", ret)
        dims, ret = acl.mdl.get_cur_output_dims(self.model_desc, 0)
        check_ret("acl.mdl.get_cur_output_dims", ret)
        out_dims = tuple(dims["dims"])
        nbytes = int(np.prod(out_dims)) * 4
        out = self.output_buffers[0]
        host, ret = acl.rt.malloc_host(out["size"])
        check_ret("acl.rt.malloc_host", ret)
        ret = acl.rt.memcpy(host, out["size"], out["buffer"], nbytes, ACL_MEMCPY_DEVICE_TO_HOST)
        check_ret("acl.rt.memcpy", ret)
        result = np.frombuffer(acl.util.ptr_to_bytes(host, nbytes), dtype=np.float32).reshape(out_dims)
        ret = acl.rt.free_host(host)
        check_ret("acl.rt.free_host", ret)
        return result, {"index": index, "batch": info, "cur_dims": list(out_dims),
                        "largest_dims": acl.mdl.get_output_dims(self.model_desc, 0)[0]["dims"],
                        "num_inputs": acl.mdl.get_num_inputs(self.model_desc)}

    def release_resource(self):
        for dataset, buffers in ((self.input_dataset, self.input_buffers), (self.output_dataset, self.output_buffers)):
            for item in buffers:
                check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(item["data"]))
                check_ret("acl.rt.free", acl.rt.free(item["buffer"]))
            check_ret("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(dataset))
        check_ret("acl.mdl.unload", acl.mdl.unload(self.model_id))
        check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(self.model_desc))
        check_ret("acl.rt.destroy_context", acl.rt.destroy_context(self.context))
        check_ret("acl.rt.reset_device", acl.rt.reset_device(self.device_id))
        check_ret("acl.finalize", acl.finalize())


if __name__ == "__main__":
    model_path, out_dir, input_files = sys.argv[1], sys.argv[2], sys.argv[3:]
    classify = Classify(model_path)
    facts = []
    for k, f in enumerate(input_files):
        result, fact = classify.run(np.load(f))
        np.save(os.path.join(out_dir, "output_%d.npy" % k), result)
        facts.append(fact)
    classify.release_resource()
    print(json.dumps(facts))
