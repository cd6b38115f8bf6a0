"""The constants of the 2009 API as their own module, as the 2009 generator gave them
(its skeleton begins `import api` and `import constants`, and reads `constants.SUCCES`).
The values are the `api` module's: this module only names them again.

{{ notice | wrap(86) | join("\n") }}
"""

from api import (  # noqa: F401 (re-exported: `constants.SUCCES`, `from constants import *`)
{% for c in api.constants %}
    {{ c.name }},
{% endfor %}
)
