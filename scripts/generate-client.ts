// npm run client:generate — rewrites packages/client/src/schema.d.ts from this build's /openapi.json.
import { writeFileSync } from 'node:fs';
import { CLIENT_SCHEMA_PATH, renderClientSchema, servedOpenApiDocument } from './client-schema.js';

writeFileSync(CLIENT_SCHEMA_PATH, await renderClientSchema(await servedOpenApiDocument()));
console.log(`wrote ${CLIENT_SCHEMA_PATH}`);
