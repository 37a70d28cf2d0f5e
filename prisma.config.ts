import { defineConfig } from 'prisma/config';

// Only `prisma generate` is used (migrations are plain SQL applied by `quin migrate`).
export default defineConfig({
  schema: 'prisma/schema.prisma',
});
