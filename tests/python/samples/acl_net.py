"""acl_net.py - synchronous inference, written as the vendor's pyACL samples
are (Ascend/samples resnet50_imagenet_classification/src/acl_net.py and
sampleResnetQuickStart.py): one class that initialises ACL, loads the model,
builds the datasets, runs, copies the outputs back and releases everything
in the documented order.  Nothing in it is specific to openacl.

    python3 acl_net.py MODEL OUT_DIR INPUT.npy [INPUT.npy ...]

One .npy file per model input; writes OUT_DIR/output_<i>.npy per output and
prints the top 5 of a classifier's first output.
"""
import os
import sys

import numpy as np

import acl
from constant import (ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_SUCCESS,
                      ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64, ACL_UINT8, NPY_FLOAT32, NPY_FLOAT16)

buffer_method = {
    "in": acl.mdl.get_input_size_by_index,
    "out": acl.mdl.get_output_size_by_index,
}

ACL_TO_NUMPY = {ACL_FLOAT: np.float32, ACL_FLOAT16: np.float16, ACL_INT32: np.int32, ACL_INT64: np.int64,
                ACL_UINT8: np.uint8}
ACL_TO_NPY_TYPE = {ACL_FLOAT: NPY_FLOAT32, ACL_FLOAT16: NPY_FLOAT16}


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise Exception("{} failed ret={}: {}".format(message, ret, acl.get_recent_err_msg()))


class Net(object):
    def __init__(self, device_id, model_path):
        self.device_id = device_id
        self.model_path = model_path
        self.model_id = None
        self.context = None
        self.stream = None
        self.run_mode = None
        self.model_desc = None
        self.input_data = []
        self.output_data = []
        self.load_input_dataset = None
        self.load_output_dataset = None
        self.init_resource()

    def init_resource(self):
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
        self.load_model()
        print("init resource success")

    def load_model(self):
        self.model_id, ret = acl.mdl.load_from_file(self.model_path)
        check_ret("acl.mdl.load_from_file", ret)
        print("model_id:{}".format(self.model_id))
        self.model_desc = acl.mdl.create_desc()
        ret = acl.mdl.get_desc(self.model_desc, self.model_id)
        check_ret("acl.mdl.get_desc", ret)
        input_size = acl.mdl.get_num_inputs(self.model_desc)
        output_size = acl.mdl.get_num_outputs(self.model_desc)
        self._gen_data_buffer(input_size, des="in")
        self._gen_data_buffer(output_size, des="out")

    def _gen_data_buffer(self, size, des):
        func = buffer_method[des]
        for i in range(size):
            temp_buffer_size = func(self.model_desc, i)
            temp_buffer, ret = acl.rt.malloc(temp_buffer_size, ACL_MEM_MALLOC_HUGE_FIRST)
            check_ret("acl.rt.malloc", ret)
            if des == "in":
                self.input_data.append({"buffer": temp_buffer, "size": temp_buffer_size})
            elif des == "out":
                self.output_data.append({"buffer": temp_buffer, "size": temp_buffer_size})

    def _data_interaction_in(self, dataset):
        for i, item in enumerate(self.input_data):
            if "bytes_to_ptr" in dir(acl.util):
                bytes_data = dataset[i].tobytes()
                ptr = acl.util.bytes_to_ptr(bytes_data)
            else:
                ptr = acl.util.numpy_to_ptr(dataset[i])
            if dataset[i].nbytes != item["size"]:
                raise Exception("input {} has {} bytes, the model wants {}".format(i, dataset[i].nbytes, item["size"]))
            ret = acl.rt.memcpy(item["buffer"], item["size"], ptr, item["size"], ACL_MEMCPY_HOST_TO_DEVICE)
            check_ret("acl.rt.memcpy", ret)

    def _gen_dataset(self, type_str="in"):
        dataset = acl.mdl.create_dataset()
        if type_str == "in":
            self.load_input_dataset = dataset
            temp_dataset = self.input_data
        else:
            self.load_output_dataset = dataset
            temp_dataset = self.output_data
        for item in temp_dataset:
            data = acl.create_data_buffer(item["buffer"], item["size"])
            _, ret = acl.mdl.add_dataset_buffer(dataset, data)
            if ret != ACL_SUCCESS:
                ret = acl.destroy_data_buffer(data)
                check_ret("acl.destroy_data_buffer", ret)

    def _data_from_host_to_device(self, images):
        print("data interaction from host to device")
        self._data_interaction_in(images)
        self._gen_dataset("in")
        self._gen_dataset("out")
        print("data interaction from host to device success")

    def _data_from_device_to_host(self):
        print("data interaction from device to host")
        res = []
        for i, item in enumerate(self.output_data):
            buffer_host, ret = acl.rt.malloc_host(item["size"])
            check_ret("acl.rt.malloc_host", ret)
            ret = acl.rt.memcpy(buffer_host, item["size"], item["buffer"], item["size"], ACL_MEMCPY_DEVICE_TO_HOST)
            check_ret("acl.rt.memcpy", ret)
            res.append({"size": item["size"], "buffer": buffer_host})
        result = self.get_result(res)
        for item in res:
            ret = acl.rt.free_host(item["buffer"])
            check_ret("acl.rt.free_host", ret)
        print("data interaction from device to host success")
        return result

    def get_result(self, output_data):
        result = []
        for i, temp in enumerate(output_data):
            dims, ret = acl.mdl.get_cur_output_dims(self.model_desc, i)
            check_ret("acl.mdl.get_cur_output_dims", ret)
            out_dim = dims["dims"]
            dtype = acl.mdl.get_output_data_type(self.model_desc, i)
            ptr = temp["buffer"]
            if "ptr_to_bytes" in dir(acl.util):
                bytes_data = acl.util.ptr_to_bytes(ptr, temp["size"])
                data = np.frombuffer(bytes_data, dtype=ACL_TO_NUMPY[dtype]).reshape(tuple(out_dim))
            else:
                data = acl.util.ptr_to_numpy(ptr, tuple(out_dim), ACL_TO_NPY_TYPE[dtype])
                data = np.array(data)  # a copy: the view dangles after free_host
            result.append(data)
        return result

    def forward(self, images):
        self._data_from_host_to_device(images)
        print("execute stage:")
        ret = acl.mdl.execute(self.model_id, self.load_input_dataset, self.load_output_dataset)
        check_ret("acl.mdl.execute", ret)
        print("execute stage success")
        self._destroy_databuffer()
        return self._data_from_device_to_host()

    def _destroy_databuffer(self):
        for dataset in [self.load_input_dataset, self.load_output_dataset]:
            if not dataset:
                continue
            number = acl.mdl.get_dataset_num_buffers(dataset)
            for i in range(number):
                data_buf = acl.mdl.get_dataset_buffer(dataset, i)
                if data_buf:
                    ret = acl.destroy_data_buffer(data_buf)
                    check_ret("acl.destroy_data_buffer", ret)
            ret = acl.mdl.destroy_dataset(dataset)
            check_ret("acl.mdl.destroy_dataset", ret)
        self.load_input_dataset = None
        self.load_output_dataset = None

    def release_resource(self):
        print("Releasing resources stage:")
        if self.model_id:
            ret = acl.mdl.unload(self.model_id)
            check_ret("acl.mdl.unload", ret)
            self.model_id = None
        if self.model_desc:
            ret = acl.mdl.destroy_desc(self.model_desc)
            check_ret("acl.mdl.destroy_desc", ret)
            self.model_desc = None
        while self.input_data:
            item = self.input_data.pop()
            ret = acl.rt.free(item["buffer"])
            check_ret("acl.rt.free", ret)
        while self.output_data:
            item = self.output_data.pop()
            ret = acl.rt.free(item["buffer"])
            check_ret("acl.rt.free", ret)
        if self.stream:
            ret = acl.rt.destroy_stream(self.stream)
            check_ret("acl.rt.destroy_stream", ret)
            self.stream = None
        if self.context:
            ret = acl.rt.destroy_context(self.context)
            check_ret("acl.rt.destroy_context", ret)
            self.context = None
        ret = acl.rt.reset_device(self.device_id)
        check_ret("acl.rt.reset_device", ret)
        ret = acl.finalize()
        check_ret("acl.finalize", ret)
        print("Resources released successfully.")


def print_top5(result):
    vals = np.array(result).flatten()
    top_k = vals.argsort()[-1:-6:-1]
    print("======== top5 inference results: =============")
    for j in top_k:
        print("[%d]: %f" % (j, vals[j]))


if __name__ == "__main__":
    model_path, out_dir, input_files = sys.argv[1], sys.argv[2], sys.argv[3:]
    net = Net(0, model_path)
    images = [np.load(f) for f in input_files]
    result = net.forward(images)
    for i, out in enumerate(result):
        np.save(os.path.join(out_dir, "output_%d.npy" % i), out)
    if result and result[0].dtype == np.float32:
        print_top5(result[0][0])
    net.release_resource()
