<?php
// What the 2010 PHP skeleton's first line, `require('api.php');`, loads: nothing, since
// run.php has already loaded the kit (api.php beside this folder). run.php puts this
// folder first on the include path, so that the skeleton's line does not load the kit a
// second time (which would declare its functions again: a fatal error).
