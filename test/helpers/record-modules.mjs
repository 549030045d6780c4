// `node --import tsx --import ./test/helpers/record-modules.mjs …` appends the URL of every module the
// process loads, one a line, to the file MODULES_LOG names: tests of what a command loads read it.
import { register } from 'node:module';

register('./record-modules-hooks.mjs', import.meta.url, { data: { file: process.env.MODULES_LOG } });
