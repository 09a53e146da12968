"""acllite_model.py - AclLiteModel as in Ascend/samples
python/common/acllite/acllite_model.py: loads a model, builds the output
tensors as numpy arrays whose bytes receive the device outputs through
util.bytes_to_ptr (written in place: pyACL §3.5), copies numpy inputs into
device buffers it keeps, appends the dynamic-batch input
"ascend_mbatch_shape_data" after the data inputs when the model has one, and
chooses the batch with set_dynamic_batch_size (pyACL §4.3)."""
import numpy as np

import acl
from acllite_resource import check_ret
from constant import (ACL_DYNAMIC_TENSOR_NAME, ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT64, ACL_MEM_MALLOC_NORMAL_ONLY,
                      ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_SUCCESS, ACL_UINT8)

ACL_TO_NUMPY = {ACL_FLOAT: np.float32, ACL_FLOAT16: np.float16, ACL_INT32: np.int32, ACL_INT64: np.int64,
                ACL_UINT8: np.uint8}


class AclLiteModel(object):
    def __init__(self, resource, model_path):
        self._resource = resource
        self._model_path = model_path
        self._model_id = None
        self._input_num = 0
        self._input_buffer = []
        self._input_dataset = None
        self._output_dataset = None
        self._model_desc = None
        self._output_size = 0
        self._is_destroyed = False
        self._init_resource()
        resource.register(self)

    def _init_resource(self):
        print("Init model resource start...")
        self._model_id, ret = acl.mdl.load_from_file(self._model_path)
        check_ret("acl.mdl.load_from_file", ret)
        self._model_desc = acl.mdl.create_desc()
        ret = acl.mdl.get_desc(self._model_desc, self._model_id)
        check_ret("acl.mdl.get_desc", ret)
        self._output_size = acl.mdl.get_num_outputs(self._model_desc)
        self._gen_output_dataset(self._output_size)
        self._input_num = acl.mdl.get_num_inputs(self._model_desc)
        self._input_buffer = [None] * self._input_num
        print("Init model resource success")

    def _gen_output_dataset(self, output_num):
        print("[AclLiteModel] create model output dataset:")
        dataset = acl.mdl.create_dataset()
        for i in range(output_num):
            size = acl.mdl.get_output_size_by_index(self._model_desc, i)
            buf, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_NORMAL_ONLY)
            check_ret("acl.rt.malloc", ret)
            dataset_buffer = acl.create_data_buffer(buf, size)
            _, ret = acl.mdl.add_dataset_buffer(dataset, dataset_buffer)
            if ret:
                acl.rt.free(buf)
                acl.destroy_data_buffer(dataset_buffer)
                check_ret("acl.mdl.add_dataset_buffer", ret)
        self._output_dataset = dataset
        print("Create model output dataset success")

    def _copy_input_to_device(self, input_ptr, size, index):
        buffer_item = self._input_buffer[index]
        if buffer_item is None:
            data, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_NORMAL_ONLY)
            check_ret("acl.rt.malloc", ret)
            self._input_buffer[index] = {"data": data, "size": size}
        elif size != buffer_item["size"]:
            raise Exception("input %d: %d bytes, the buffer has %d" % (index, size, buffer_item["size"]))
        data = self._input_buffer[index]["data"]
        ret = acl.rt.memcpy(data, size, input_ptr, size, ACL_MEMCPY_HOST_TO_DEVICE)
        check_ret("acl.rt.memcpy", ret)
        return data

    def _parse_input_data(self, input_data, index):
        if isinstance(input_data, np.ndarray):
            size = input_data.size * input_data.itemsize
            if "bytes_to_ptr" in dir(acl.util):
                bytes_data = input_data.tobytes()
                ptr = acl.util.bytes_to_ptr(bytes_data)
            else:
                ptr = acl.util.numpy_to_ptr(input_data)
            return self._copy_input_to_device(ptr, size, index), size
        if isinstance(input_data, dict):
            return input_data["data"], input_data["size"]
        raise Exception("Unsupport input")

    def _gen_input_dataset(self, input_list):
        dynamic_idx, ret = acl.mdl.get_input_index_by_name(self._model_desc, ACL_DYNAMIC_TENSOR_NAME)
        if ret == ACL_SUCCESS:
            data_len = acl.mdl.get_input_size_by_index(self._model_desc, dynamic_idx)
            buf, ret = acl.rt.malloc(data_len, ACL_MEM_MALLOC_NORMAL_ONLY)
            check_ret("acl.rt.malloc", ret)
            self._batch_buffer = {"data": buf, "size": data_len}
            input_list = list(input_list) + [self._batch_buffer]
        if len(input_list) != self._input_num:
            raise Exception("Current input data num %d unequal to model input num %d"
                            % (len(input_list), self._input_num))
        self._input_dataset = acl.mdl.create_dataset()
        for i in range(self._input_num):
            data, size = self._parse_input_data(input_list[i], i)
            dataset_buffer = acl.create_data_buffer(data, size)
            _, ret = acl.mdl.add_dataset_buffer(self._input_dataset, dataset_buffer)
            check_ret("acl.mdl.add_dataset_buffer", ret)

    def _set_dynamic_batch_size(self, batch):
        dynamic_idx, ret = acl.mdl.get_input_index_by_name(self._model_desc, ACL_DYNAMIC_TENSOR_NAME)
        check_ret("acl.mdl.get_input_index_by_name", ret)
        dynamic_batch, ret = acl.mdl.get_dynamic_batch(self._model_desc)
        check_ret("acl.mdl.get_dynamic_batch", ret)
        if batch not in dynamic_batch["batch"]:
            raise Exception("dynamic batch {} is not in {}".format(batch, dynamic_batch["batch"]))
        ret = acl.mdl.set_dynamic_batch_size(self._model_id, self._input_dataset, dynamic_idx, batch)
        check_ret("acl.mdl.set_dynamic_batch_size", ret)

    def execute(self, input_list, batch=None):
        self._gen_input_dataset(input_list)
        if batch is not None:
            self._set_dynamic_batch_size(batch)
        ret = acl.mdl.execute(self._model_id, self._input_dataset, self._output_dataset)
        check_ret("acl.mdl.execute", ret)
        out = self._output_dataset_to_numpy()
        self._release_dataset(self._input_dataset, free_memory=False)
        self._input_dataset = None
        if batch is not None:
            acl.rt.free(self._batch_buffer["data"])
        return out

    def _gen_output_tensor(self):
        output_tensor_list = []
        for i in range(self._output_size):
            dims = acl.mdl.get_output_dims(self._model_desc, i)
            shape = tuple(dims[0]["dims"])
            datatype = acl.mdl.get_output_data_type(self._model_desc, i)
            size = acl.mdl.get_output_size_by_index(self._model_desc, i)
            np_type = ACL_TO_NUMPY[datatype]
            output_tensor = np.zeros(size // np.dtype(np_type).itemsize, dtype=np_type).reshape(shape)
            if "bytes_to_ptr" in dir(acl.util):
                bytes_data = output_tensor.tobytes()
                tensor_ptr = acl.util.bytes_to_ptr(bytes_data)
                output_tensor_list.append({"ptr": tensor_ptr, "tensor": bytes_data, "shape": shape, "dtype": np_type})
            else:
                tensor_ptr = acl.util.numpy_to_ptr(output_tensor)
                output_tensor_list.append({"ptr": tensor_ptr, "tensor": output_tensor})
        return output_tensor_list

    def _output_dataset_to_numpy(self):
        dataset = []
        output_tensor_list = self._gen_output_tensor()
        num = acl.mdl.get_dataset_num_buffers(self._output_dataset)
        for i in range(num):
            buf = acl.mdl.get_dataset_buffer(self._output_dataset, i)
            data = acl.get_data_buffer_addr(buf)
            size = int(acl.get_data_buffer_size(buf))
            output_ptr = output_tensor_list[i]["ptr"]
            output_tensor = output_tensor_list[i]["tensor"]
            if isinstance(output_tensor, bytes):
                ret = acl.rt.memcpy(output_ptr, len(output_tensor), data, size, ACL_MEMCPY_DEVICE_TO_HOST)
                check_ret("acl.rt.memcpy", ret)
                output_tensor = np.frombuffer(output_tensor, dtype=output_tensor_list[i]["dtype"]).reshape(
                    output_tensor_list[i]["shape"])
            else:
                ret = acl.rt.memcpy(output_ptr, output_tensor.size * output_tensor.itemsize, data, size,
                                    ACL_MEMCPY_DEVICE_TO_HOST)
                check_ret("acl.rt.memcpy", ret)
            dataset.append(output_tensor)
        return dataset

    def _release_dataset(self, dataset, free_memory=False):
        if not dataset:
            return
        num = acl.mdl.get_dataset_num_buffers(dataset)
        for i in range(num):
            data_buf = acl.mdl.get_dataset_buffer(dataset, i)
            if data_buf:
                if free_memory:
                    acl.rt.free(acl.get_data_buffer_addr(data_buf))
                acl.destroy_data_buffer(data_buf)
        acl.mdl.destroy_dataset(dataset)

    def destroy(self):
        if self._is_destroyed:
            return
        self._release_dataset(self._output_dataset, free_memory=True)
        for item in self._input_buffer:
            if item:
                acl.rt.free(item["data"])
        if self._model_id:
            check_ret("acl.mdl.unload", acl.mdl.unload(self._model_id))
        if self._model_desc:
            check_ret("acl.mdl.destroy_desc", acl.mdl.destroy_desc(self._model_desc))
        self._is_destroyed = True
        print("AclLiteModel release source success")

    def __del__(self):
        self.destroy()
