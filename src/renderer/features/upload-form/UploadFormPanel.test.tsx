import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { UploadFormPanel, type UploadFormPanelProps } from './index.ts';
import { uploadDescribe } from './upload.fixture.ts';

const transport: UploadFormPanelProps['transport'] = { upload: () => Promise.reject(new Error('not in this test')) };

function render(props: Partial<UploadFormPanelProps>) {
  return renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <UploadFormPanel describe={uploadDescribe} server={{ connectionId: 'c1', baseUrl: 'http://h', authClass: 'jwt', token: 't' }} transport={transport} {...props} />
    </QueryClientProvider>,
  );
}

describe('UploadFormPanel', () => {
  it('lists the targets and draws the first one as a form', () => {
    const html = render({});
    expect(html).toContain('learning.LearningContentRegistration · uploadPackage (controller)');
    expect(html).toContain('tickets.Document · create');
    expect(html).toContain('files up to 1 KiB each');
    // The first target is the controller: JSON arguments and its declared part.
    expect(html).toContain('id="upload-arguments"');
    expect(html).toContain('data-part="package"');
    expect(html).toContain('The preview appears once the form is complete.');
  });

  it('explains an empty target list and a missing connection', () => {
    expect(render({ describe: null })).toContain('Connect to a server that answers system.Schema.describe');
    expect(render({ server: null })).toContain('Pick a connection first.');
  });
});
