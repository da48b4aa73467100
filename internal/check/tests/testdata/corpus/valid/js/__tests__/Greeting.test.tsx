import React from 'react'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Greeting } from '../src/Greeting'

const generic = <T,>(x: T): T => x

describe('<Greeting />', () => {
  it("says hello to the user's name", async () => {
    render(
      <div className="wrapper">
        <Greeting name={generic('Ada')} />
        <p>Don't panic — it's only a test's text with a / slash</p>
        <>{/* a comment in JSX */}</>
      </div>,
    )
    expect(await screen.findByText(/hello, ada/i)).toBeInTheDocument()
  })

  it('renders the name it is given', () => {
    render(<Greeting name="Grace" />)
    screen.getByText('Hello, Grace')
  })

  it('greets again on click', async () => {
    const user = userEvent.setup()
    render(<Greeting name="Linus" onClick={() => undefined} />)
    await user.click(screen.getByRole('button'))
    expect(screen.getAllByText(/hello/i)).toHaveLength(2)
  })
})
