#!/usr/bin/python3
"""Writes the tiny models tests/tool/infer*.sh run (committed beside this script):

dyn_batch.onnx  x: float32 [N,4] -> y = relu(x) * 2 + 1 : float32 [N,4]
                                 -> z:0 = -x, shape not declared (an output the tool must size itself)
dyn_2d.onnx     x: float32 [N,L] -> y = relu(x) : float32 [N,L]   (two symbolic dimensions)

Run it from this folder: /usr/bin/python3 make_models.py (needs python3-onnx).
"""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])
z = helper.make_tensor_value_info("z:0", TensorProto.FLOAT, None)
two = numpy_helper.from_array(np.array([2.0], dtype=np.float32), "two")
one = numpy_helper.from_array(np.array([1.0], dtype=np.float32), "one")
nodes = [
    helper.make_node("Relu", ["x"], ["r"]),
    helper.make_node("Mul", ["r", "two"], ["m"]),
    helper.make_node("Add", ["m", "one"], ["y"]),
    helper.make_node("Neg", ["x"], ["z:0"]),
]
graph = helper.make_graph(nodes, "dyn_batch", [x], [y, z], [two, one])
model = helper.make_model(graph, producer_name="openacl-tests", opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
# no checker: it insists on a shape for z:0, which ONNX files in the wild often omit
onnx.save(model, "dyn_batch.onnx")

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", "L"])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", "L"])
graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "dyn_2d", [x], [y])
model = helper.make_model(graph, producer_name="openacl-tests", opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, "dyn_2d.onnx")
