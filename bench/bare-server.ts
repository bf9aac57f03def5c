// The yardstick: a bare Fastify route returning small JSON, in its own process.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ status: 'success', data: { id: 'u1', name: 'Ada' } }));
const port = Number(process.env.PORT ?? 0);
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write('ready\n');
