# SPDX-License-Identifier: MIT
# Run by lava/local-server through `lava-server manage shell` (one Django start instead of one
# per `manage` command): what `manage users/device-types/workers/devices add` would do, made
# idempotent, and a fresh API token. LAVA_LOCAL is the instance's directory; the secrets go to
# files there (mode 600), never to the output.
import os
from pathlib import Path

from django.contrib.auth.models import User
from lava_scheduler_app.models import Device, DeviceType, Worker
from linaro_django_xmlrpc.models import AuthToken

local = Path(os.environ["LAVA_LOCAL"])
os.umask(0o077)

user = User.objects.filter(username="lab").first()
if user is None:
    user = User.objects.create_superuser("lab", "", None)
    user.set_unusable_password()
    user.save()
dt = DeviceType.objects.get_or_create(name="qemu")[0]
worker = Worker.objects.get_or_create(
    hostname="lab-local", defaults={"description": "this machine (lava/local-server)"}
)[0]
(local / "worker" / "token").write_text(worker.token)
for i in range(1, int(os.environ.get("LAVA_LOCAL_DEVICES", "1")) + 1):
    Device.objects.get_or_create(
        hostname="qemu-%02d" % i,
        defaults={"device_type": dt, "worker_host": worker, "state": Device.STATE_IDLE,
                  "health": Device.HEALTH_GOOD},
    )
# A new API token each start, the old ones revoked: a stopped instance's token is worth nothing.
AuthToken.objects.filter(user=user).delete()
AuthToken.objects.create(user=user, secret=(local / "token").read_text().strip(),
                         description="lava/local-server")
print("lab-local: user lab, device type qemu, worker lab-local, %d device(s)"
      % Device.objects.filter(worker_host=worker).count())
