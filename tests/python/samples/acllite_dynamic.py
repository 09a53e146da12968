"""acllite_dynamic.py - the acllite flow of pyACL §4.3 for a model with batch
gears: AclLiteResource + AclLiteModel (this folder), one model per input
file, the batch chosen with set_dynamic_batch_size, the outputs shaped as the
largest gear (get_output_dims) and received through bytes_to_ptr.

    OPENACL_DYNAMIC_BATCH=1,2,4,8 python3 acllite_dynamic.py MODEL OUT_DIR INPUT.npy [INPUT.npy ...]

Writes OUT_DIR/output_<k>.npy: output 0 for input k, all rows of the largest
gear (the first `batch` rows are the result).
"""
import os
import sys

import numpy as np

from acllite_model import AclLiteModel
from acllite_resource import AclLiteResource

if __name__ == "__main__":
    model_path, out_dir, input_files = sys.argv[1], sys.argv[2], sys.argv[3:]
    resource = AclLiteResource()
    resource.init()
    for k, f in enumerate(input_files):
        data = np.load(f)
        model = AclLiteModel(resource, model_path)
        result = model.execute([data], batch=data.shape[0])
        np.save(os.path.join(out_dir, "output_%d.npy" % k), result[0])
    resource.release()
    print("done")
