-- | Exports2009.hs -- the 2009 form of the Haskell kit's API: the 2009 skeleton
-- (`prologin.hs`) declared each function with its own `foreign import ccall type_case ::
-- Int -> Int -> IO Int`; this module gives each such C symbol, the kit's function of the
-- same name (Api.hs) exported with `foreign export ccall`. haskell.mk links it into a
-- champion built from a `prologin.hs`.
{% for line in notice | wrap(86) %}
-- {{ line }}
{% endfor %}
module Exports2009 () where

import qualified Api
{% for f in api.functions %}

foreign export ccall "{{ f.name }}" {{ f.name }} :: {% for a in f.args %}Int -> {% endfor %}IO {{ 'Bool' if f.result == 'bool' else 'Int' }}
{{ f.name }} :: {% for a in f.args %}Int -> {% endfor %}IO {{ 'Bool' if f.result == 'bool' else 'Int' }}
{{ f.name }} = Api.{{ f.name }}
{% endfor %}
